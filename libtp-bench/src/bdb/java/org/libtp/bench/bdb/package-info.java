/**
 * Berkeley DB C 5.3 (Debian's {@code libdb5.3-java}), the optional peer of the TPC-B and OO1
 * harnesses, compiled only with {@code mvn -Pbdb}: what its two stores share
 * ({@link org.libtp.bench.bdb.BdbEnvironment}: the environment, recovery, several processes).
 */
package org.libtp.bench.bdb;
