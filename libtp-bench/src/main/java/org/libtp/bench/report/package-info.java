/**
 * The {@code report} command: docs/benchmarks.md's generated section (machine facts, targets,
 * TPC-B and OO1 tables, the paper's ratios) and its PNG charts, from the JSON lines of the
 * {@code commit}, {@code tpcb} and {@code oo1} commands. {@code libtp-bench/scripts/bench-report.sh} runs
 * the measurements and then this command.
 */
package org.libtp.bench.report;
