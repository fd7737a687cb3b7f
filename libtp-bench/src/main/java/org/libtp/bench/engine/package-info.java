/**
 * Opening and closing the engines that the TPC-B ({@code tpcb}) and OO1 ({@code oo1}) harnesses
 * run on: LibTP in the paper's four configurations ({@link org.libtp.bench.engine.LibtpEngine}),
 * SQLite, H2's MVStore, Berkeley DB Java Edition and LMDB, each with its durability settings,
 * its directory and its close. What the two harnesses set differently is a parameter here,
 * named at each call, and each class's comment says why they differ; their tables, records and
 * transactions stay in the harnesses' own adapters.
 */
package org.libtp.bench.engine;
