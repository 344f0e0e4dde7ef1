/**
 * The hot path of measurement: {@link dev.blocklab.recorder.RunRecorder} takes one call per completed request
 * from any thread without waiting (a stripe per CPU); {@link dev.blocklab.recorder.ProcessMetrics} reads process-wide counters
 * (getrusage through the FFM API, the JVM's thread and allocation counters, /proc/self/status);
 * {@link dev.blocklab.recorder.ResourceSampler} samples what has no peak counter;
 * {@link dev.blocklab.recorder.FailureMeter} watches every backend call and request end to score how requests fail. Recorders are mutable and
 * concurrent; they hand out immutable results and never print.
 */
package dev.blocklab.recorder;
