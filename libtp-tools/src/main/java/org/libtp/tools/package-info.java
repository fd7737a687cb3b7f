/**
 * The {@code libtp} command-line tool ({@code libtp-tools/target/libtp.jar}, {@code bin/libtp}):
 * picocli subcommands over the record API, one class each. A tool attaches to an environment
 * that applications may have open, with their settings ({@link org.libtp.db.Environment#join});
 * it refuses a directory that is not an environment rather than creating one. Tools print;
 * the library's log goes to stderr at WARN. Exit status: 0 done, 1 problems found, 2 bad usage,
 * 3 the environment could not be used.
 */
package org.libtp.tools;
