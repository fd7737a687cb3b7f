/**
 * The paper's OO1 benchmark (section 5.2, after Cattell's "OO1"): a parts/connections database of
 * 20,000 or 200,000 parts, and the lookup, forward and backward traversal and insert tests, cold
 * and warm, on LibTP and its peers. {@link org.libtp.bench.oo1.Oo1Command} is the command line;
 * {@link org.libtp.bench.oo1.Oo1Store} is what each engine implements, so every engine runs the
 * same workload code ({@link org.libtp.bench.oo1.Oo1Workload}) on the same generated database
 * ({@link org.libtp.bench.oo1.Oo1Generator}).
 */
package org.libtp.bench.oo1;
