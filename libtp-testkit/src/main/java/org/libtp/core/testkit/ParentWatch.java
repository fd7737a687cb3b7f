package org.libtp.core.testkit;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * For the multi-process harnesses: the command that starts a child JVM like this one, and, in
 * the child, whether the parent that started it is still there.
 */
public final class ParentWatch {
    private ParentWatch() {
    }

    /**
     * True while the parent runs. A dead parent can stay a zombie (and "alive" to
     * {@link ProcessHandle#isAlive}) until it is reaped, but its children are re-parented the
     * moment it exits: so our parent pid changing is checked first.
     */
    public static boolean parentAlive(long parentPid) {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        if (parent.isEmpty() || parent.get().pid() != parentPid) {
            return false;
        }
        return parent.get().isAlive();
    }

    /**
     * {@code java}, this JVM's flags (e.g. --enable-native-access) minus agents and debuggers,
     * this class path and {@code main}: the caller appends the arguments.
     */
    public static List<String> javaCommand(Class<?> main) {
        List<String> cmd = new ArrayList<>();
        Optional<String> self = ProcessHandle.current().info().command();
        cmd.add(self.isPresent() && new File(self.get()).canExecute() ? self.get()
                : Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib") && !a.startsWith("-agentpath") && !a.startsWith("-javaagent")
                    && !a.startsWith("-Xrunjdwp") && !a.startsWith("-Xdebug")) {
                cmd.add(a);
            }
        }
        if (cmd.stream().noneMatch(a -> a.startsWith("--enable-native-access"))) {
            cmd.add("--enable-native-access=ALL-UNNAMED"); // what the jar's manifest gives the parent
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        return cmd;
    }

    /**
     * In a child: a daemon thread that halts this JVM (status 3) once the parent that started
     * it is gone, so that a killed harness leaves no workers behind.
     */
    public static void startWatchdog(long parentPid, String who, long periodMillis) {
        Thread watchdog = new Thread(() -> {
            while (parentAlive(parentPid)) {
                try {
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
            orphaned(who, "parent " + parentPid + " is gone");
        }, who + " watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** In a child whose parent is gone (or whose control pipe closed): says so and halts. */
    public static void orphaned(String who, String why) {
        System.err.println(who + ": " + why + "; exiting");
        System.err.flush();
        Runtime.getRuntime().halt(3);
    }
}
