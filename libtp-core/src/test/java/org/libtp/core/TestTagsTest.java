package org.libtp.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every test that starts child JVMs or simulates a crash can be selected and cannot hang: the
 * test classes of every module that use the multi-JVM kit ({@code ChildJvm}, {@code PipedChild},
 * {@code Phases}) or are named {@code *CrashTest} / {@code *MultiProcessTest} carry
 * {@code @Tag("multi-jvm")} or {@code @Tag("crash")} (so {@code mvn verify -Dgroups=crash}
 * selects them, {@code -DexcludedGroups=...} leaves them out) and a class-level {@code @Timeout}.
 */
class TestTagsTest {
    private static final Pattern USES_KIT = Pattern.compile("\\b(ChildJvm|PipedChild|Phases)\\b");
    private static final Pattern TAG = Pattern.compile("@(org\\.junit\\.jupiter\\.api\\.)?Tag\\(\"(multi-jvm|crash)\"\\)");
    private static final Pattern CLASS_TIMEOUT = Pattern.compile(
            "@(org\\.junit\\.jupiter\\.api\\.)?Timeout\\([^)]*\\)\\s*(@[\\w.]+(\\([^)]*\\))?\\s*)*(public\\s+)?(final\\s+)?class\\s");

    @Test
    void multiJvmAndCrashTestsAreTaggedAndTimed() throws IOException {
        List<Path> roots;
        try (Stream<Path> modules = Files.list(Path.of("..").toAbsolutePath().normalize())) {
            roots = modules.filter(m -> m.getFileName().toString().startsWith("libtp-"))
                    .map(m -> m.resolve("src/test/java")).filter(Files::isDirectory).toList();
        }
        assertTrue(roots.size() >= 4, "test source roots found: " + roots);
        List<String> checked = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.getFileName().toString().matches(".*(Test|IT)\\.java")).toList()) {
                    String name = f.getFileName().toString();
                    String src = Files.readString(f);
                    boolean relevant = name.endsWith("CrashTest.java") || name.endsWith("MultiProcessTest.java")
                            || USES_KIT.matcher(PackageCycleTest.codeOnly(src)).find();
                    if (!relevant || name.equals("TestTagsTest.java")) {
                        continue;
                    }
                    checked.add(name);
                    if (!TAG.matcher(src).find() || !CLASS_TIMEOUT.matcher(src).find()) {
                        wrong.add(root.getParent().getParent().getParent().getFileName() + "/" + root.relativize(f));
                    }
                }
            }
        }
        assertTrue(checked.size() >= 30, "multi-JVM and crash test classes found: " + checked);
        assertEquals(List.of(), wrong, "test classes without @Tag(\"multi-jvm\"|\"crash\") or a class-level @Timeout");
    }
}
