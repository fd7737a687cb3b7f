package org.libtp.bench.engine;

/**
 * Creates an engine store compiled only with an optional Maven profile (Berkeley DB C: {@code
 * -Pbdb}), by class name, so that the default build needs none of its classes. Both harnesses
 * ({@code tpcb}, {@code oo1}) load theirs through here and report the same two problems: not in
 * this build, or in the build but Berkeley DB's jar or JNI library missing at run time.
 */
public final class OptionalEngine {
    private OptionalEngine() {
    }

    /**
     * A new {@code className}, built by its (possibly package-private) constructor taking
     * {@code options}.
     */
    public static <T> T create(String className, Class<T> type, Class<?> optionsType, Object options) {
        try {
            Class<?> c = Class.forName(className);
            java.lang.reflect.Constructor<?> k = c.getDeclaredConstructor(optionsType);
            k.setAccessible(true);
            return type.cast(k.newInstance(options));
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
            throw new IllegalStateException("cannot create " + className + ": " + e, e);
        }
    }

    /** Built with -Pbdb, but Berkeley DB's jar or JNI library is not there at run time. */
    private static IllegalArgumentException bdbMissing(LinkageError e) {
        return new IllegalArgumentException("engine bdb (Berkeley DB C) is in this build but Berkeley DB is not on the "
                + "class path or its JNI library is missing (" + e + "): run java -cp "
                + "libtp-bench/target/libtp-bench.jar:/usr/share/java/db.jar org.libtp.bench.BenchMain ... (not java -jar), "
                + "with Debian's libdb5.3-java-jni installed");
    }
}
