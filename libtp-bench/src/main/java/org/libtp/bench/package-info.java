/**
 * Benchmarks: JMH benchmarks of the substrate (memory, latches, semaphores) and, in later
 * issues, the multi-process TPC-B and OO1 harnesses of the paper's section 5.
 */
package org.libtp.bench;
