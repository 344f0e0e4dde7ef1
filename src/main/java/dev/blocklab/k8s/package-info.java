/**
 * Kubernetes manifests for a distributed attack, built with fabric8's typed Kubernetes model (not string
 * templates): an Indexed Job whose pods each run one {@link dev.blocklab.load.Shard} of the attack (the pod's
 * {@code JOB_COMPLETION_INDEX} is its shard) from one common start, and the step that merges their records
 * ({@link dev.blocklab.shard.ShardMerge}). See docs/distributed.md.
 */
package dev.blocklab.k8s;
