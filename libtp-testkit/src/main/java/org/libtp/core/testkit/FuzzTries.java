package org.libtp.core.testkit;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Scales the tries of the fuzz properties (the *FuzzTest classes): {@code @Property(tries = N)}
 * is a compile-time constant sized for plain {@code mvn verify} (a few seconds a property);
 * under {@code -Pstress} (system property {@code libtp.stress=true}) the tries are multiplied by
 * {@link #FACTOR}, or by {@code -Dlibtp.fuzz.factor=K}, so a property runs for minutes.
 * Register with {@code @AddLifecycleHook(FuzzTries.class)} on the class. Shared by the fuzz tests
 * of every module.
 */
public final class FuzzTries implements AroundPropertyHook {
    /** The stress multiplier: the default tries take 1-5 s; 100 times that is minutes. */
    public static final int FACTOR = 100;

    public static int factor() {
        Integer k = Integer.getInteger("libtp.fuzz.factor");
        if (k != null) {
            return Math.max(1, k);
        }
        return Boolean.getBoolean("libtp.stress") ? FACTOR : 1;
    }

    /** Put on a class, the hook applies to its properties (jqwik's default is the class alone). */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        int k = factor();
        if (k > 1) {
            // an @Example has one try: it stays one
            context.attributes().tries().filter(t -> t > 1).ifPresent(t -> context.attributes()
                    .setTries((int) Math.min(Integer.MAX_VALUE, (long) t * k)));
        }
        return property.execute();
    }
}
