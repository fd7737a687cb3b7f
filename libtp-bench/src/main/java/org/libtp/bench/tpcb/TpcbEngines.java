package org.libtp.bench.tpcb;

import org.libtp.bench.engine.LibtpEngine;

import java.util.List;

/** The engines of the TPC-B harness by name. */
public final class TpcbEngines {
    /** Every engine name {@link #open} knows, in the order reports list them. */
    public static final List<String> NAMES = List.of("libtp", "notp", "flock", "fsync", "sqlite", "h2", "je", "lmdb",
            "libtp-jdbc", "h2-sql");
    /** Engines that only builds with an optional profile have ({@code bdb}: {@code -Pbdb}). */
    public static final List<String> OPTIONAL = List.of("bdb");

    /**
     * Berkeley DB C, the optional peer: compiled only by {@code mvn -Pbdb} (Debian's
     * {@code libdb5.3-java} and {@code libdb5.3-java-jni} packages), so looked up by name.
     */
    public static final String BDB_CLASS = "org.libtp.bench.tpcb.BdbTpcb";

    private TpcbEngines() {
    }

    private static TpcbStore bdb(EngineOptions o) {
        return org.libtp.bench.engine.OptionalEngine.create(BDB_CLASS, TpcbStore.class, EngineOptions.class, o);
    }

    /** Opens engine {@code name}'s store in {@code o.dir()}. */
    public static TpcbStore open(String name, EngineOptions o) {
        return switch (name) {
            case "libtp" -> new LibtpTpcb(LibtpEngine.Variant.TP, o);
            case "notp" -> new LibtpTpcb(LibtpEngine.Variant.NOTP, o);
            case "flock" -> new LibtpTpcb(LibtpEngine.Variant.FLOCK, o);
            case "fsync" -> new LibtpTpcb(LibtpEngine.Variant.FSYNC, o);
            case "sqlite" -> new SqliteTpcb(o);
            case "h2" -> new H2Tpcb(o);
            case "je" -> new JeTpcb(o);
            case "lmdb" -> new LmdbTpcb(o);
            case "libtp-jdbc" -> new JdbcSqlTpcb(JdbcSqlTpcb.Dialect.LIBTP, o);
            case "h2-sql" -> new JdbcSqlTpcb(JdbcSqlTpcb.Dialect.H2, o);
            case "bdb" -> bdb(o);
            default -> throw new IllegalArgumentException("unknown engine '" + name + "'; one of " + NAMES);
        };
    }
}
