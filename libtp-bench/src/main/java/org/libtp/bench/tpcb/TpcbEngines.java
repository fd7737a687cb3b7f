package org.libtp.bench.tpcb;

import java.util.List;

/** The engines of the TPC-B harness by name. */
public final class TpcbEngines {
    /** Every engine name {@link #open} knows, in the order reports list them. */
    public static final List<String> NAMES = List.of("libtp", "notp", "flock", "fsync", "sqlite", "h2", "je", "lmdb");
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
        try {
            Class<?> c = Class.forName(BDB_CLASS);
            java.lang.reflect.Constructor<?> k = c.getDeclaredConstructor(EngineOptions.class);
            k.setAccessible(true);
            return (TpcbStore) k.newInstance(o);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("engine bdb (Berkeley DB C) is not in this build: install Debian's "
                    + "libdb5.3-java and libdb5.3-java-jni and build with mvn -Pbdb package");
        } catch (LinkageError e) {
            throw bdbMissing(e);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof LinkageError l) {
                throw bdbMissing(l);
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + BDB_CLASS + ": " + e, e);
        }
    }

    /** Built with -Pbdb, but Berkeley DB's jar or JNI library is not there at run time. */
    private static IllegalArgumentException bdbMissing(LinkageError e) {
        return new IllegalArgumentException("engine bdb (Berkeley DB C) is in this build but Berkeley DB is not on the "
                + "class path or its JNI library is missing (" + e + "): run java -cp "
                + "libtp-bench/target/libtp-bench.jar:/usr/share/java/db.jar org.libtp.bench.BenchMain ... (not java -jar), "
                + "with Debian's libdb5.3-java-jni installed");
    }

    /** Opens engine {@code name}'s store in {@code o.dir()}. */
    public static TpcbStore open(String name, EngineOptions o) {
        return switch (name) {
            case "libtp" -> new LibtpTpcb(LibtpTpcb.Variant.TP, o);
            case "notp" -> new LibtpTpcb(LibtpTpcb.Variant.NOTP, o);
            case "flock" -> new LibtpTpcb(LibtpTpcb.Variant.FLOCK, o);
            case "fsync" -> new LibtpTpcb(LibtpTpcb.Variant.FSYNC, o);
            case "sqlite" -> new SqliteTpcb(o);
            case "h2" -> new H2Tpcb(o);
            case "je" -> new JeTpcb(o);
            case "lmdb" -> new LmdbTpcb(o);
            case "bdb" -> bdb(o);
            default -> throw new IllegalArgumentException("unknown engine '" + name + "'; one of " + NAMES);
        };
    }
}
