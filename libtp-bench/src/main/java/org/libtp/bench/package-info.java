/**
 * Benchmarks: {@link org.libtp.bench.BenchMain} (the jar's commands, one picocli command
 * line), the JMH benchmarks of the substrate ({@code jmh}), the commit harness
 * ({@link org.libtp.bench.CommitBench}), the two-JVM
 * semaphore ping-pong, and, in subpackages, the paper's TPC-B and OO1 (section 5), the
 * operations benchmarks and the report of {@code docs/benchmarks.md}.
 *
 * <p>Harnesses that measure several processes start child JVMs like this one and drive them
 * over the control pipe of libtp-testkit ({@code PipedChild}, {@code Phases}: READY, GO, MARK,
 * STOP, RESULT); a child halts once its parent is gone ({@code ParentWatch}), so a killed
 * harness leaves no workers behind.
 */
package org.libtp.bench;
