package org.libtp.bench.oo1;

import org.libtp.bench.engine.LibtpEngine;

import java.util.List;

/** The engines of the OO1 harness by name. */
public final class Oo1Engines {
    /** Every engine name {@link #open} knows, in the order reports list them. */
    public static final List<String> NAMES = List.of("libtp", "notp", "flock", "fsync", "sqlite", "h2", "je", "lmdb");
    /** Engines that only builds with an optional profile have ({@code bdb}: {@code -Pbdb}). */
    public static final List<String> OPTIONAL = List.of("bdb");

    /**
     * Berkeley DB C, the optional peer: compiled only by {@code mvn -Pbdb} (Debian's
     * {@code libdb5.3-java} and {@code libdb5.3-java-jni} packages), so looked up by name.
     */
    public static final String BDB_CLASS = "org.libtp.bench.oo1.BdbOo1";

    private Oo1Engines() {
    }

    private static Oo1Store bdb(StoreOptions o) {
        return org.libtp.bench.engine.OptionalEngine.create(BDB_CLASS, Oo1Store.class, StoreOptions.class, o);
    }

    /** Opens engine {@code name}'s store in {@code o.dir()}. */
    public static Oo1Store open(String name, StoreOptions o) {
        return switch (name) {
            case "libtp" -> new LibtpOo1(LibtpEngine.Variant.TP, o);
            case "notp" -> new LibtpOo1(LibtpEngine.Variant.NOTP, o);
            case "flock" -> new LibtpOo1(LibtpEngine.Variant.FLOCK, o);
            case "fsync" -> new LibtpOo1(LibtpEngine.Variant.FSYNC, o);
            case "sqlite" -> new SqliteOo1(o);
            case "h2" -> new H2Oo1(o);
            case "je" -> new JeOo1(o);
            case "lmdb" -> new LmdbOo1(o);
            case "bdb" -> bdb(o);
            default -> throw new IllegalArgumentException("unknown engine '" + name + "'; one of " + NAMES);
        };
    }
}
