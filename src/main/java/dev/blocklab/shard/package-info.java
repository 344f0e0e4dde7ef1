/**
 * Distributed attacks: one open schedule split over many workers ({@link dev.blocklab.load.Shard}, each sending
 * every N-th request of it from a common start, {@link dev.blocklab.shard.StartAt}), each worker's measurements
 * saved whole ({@link dev.blocklab.shard.ShardRecord}: counters and HdrHistograms, written by
 * {@link dev.blocklab.shard.ShardCapture}), and the exact merge of those records into one attack result
 * ({@link dev.blocklab.shard.ShardMerge}): histograms and counters added, so the merge equals what one process
 * recording every sample would report. {@link dev.blocklab.shard.LocalWorkers} runs the shards as child JVMs on
 * this machine.
 */
package dev.blocklab.shard;
