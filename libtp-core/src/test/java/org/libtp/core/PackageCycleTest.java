package org.libtp.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package dependency graph of libtp-core's main code (references to {@code org.libtp.*}
 * types, comments and strings left out) and its cycles, of which there are none: the lock
 * manager knows lockers only through its own {@code Locker} and {@code LockerTable}, the buffer
 * manager knows no transaction (physical page logging, {@code PageUpdates}, is the transaction
 * manager's), and the log reads its files for the record printer without knowing record types.
 * The same holds for the main code of every module together (the access methods, the SQL
 * layer, the tools, the examples, the bench). A new cycle, or a package joining one, fails here.
 */
class PackageCycleTest {
    static final Set<Set<String>> KNOWN = Set.of();

    private static final Pattern PACKAGE = Pattern.compile("^package ([a-z.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("(org\\.libtp\\.[a-z]+(?:\\.[a-z]+)*)\\.[A-Z]");

    static Map<String, Set<String>> graph(Path root) throws IOException {
        Map<String, Set<String>> g = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String src = Files.readString(p);
                Matcher m = PACKAGE.matcher(src);
                if (!m.find()) {
                    continue;
                }
                String pkg = m.group(1);
                // Comments and string literals name packages without depending on them.
                String code = codeOnly(src);
                Set<String> deps = g.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher r = REFERENCE.matcher(code);
                while (r.find()) {
                    if (!r.group(1).equals(pkg)) {
                        deps.add(r.group(1));
                    }
                }
            }
        }
        return g;
    }

    /**
     * The source without comments, string and char literals and text blocks (a scan, not a
     * regular expression: those recurse per character and overflow the stack on long strings).
     */
    static String codeOnly(String src) {
        StringBuilder b = new StringBuilder(src.length());
        int n = src.length();
        for (int i = 0; i < n; i++) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    i++;
                }
                b.append('\n');
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 1;
                b.append(' ');
            } else if (c == '"' && src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                while (end > 0 && src.charAt(end - 1) == '\\') {
                    end = src.indexOf("\"\"\"", end + 1);
                }
                i = end < 0 ? n : end + 2;
                b.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && src.charAt(j) != c) {
                    j += src.charAt(j) == '\\' ? 2 : 1;
                }
                i = j;
                b.append(c).append(c);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** The strongly connected components with more than one package (Tarjan). */
    static Set<Set<String>> cycles(Map<String, Set<String>> g) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        Set<Set<String>> out = new HashSet<>();
        int[] counter = {0};
        for (String v : g.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, g, index, low, stack, onStack, out, counter);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> g, Map<String, Integer> index, Map<String, Integer> low,
                                Deque<String> stack, Set<String> onStack, Set<Set<String>> out, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : g.getOrDefault(v, Set.of())) {
            if (!g.containsKey(w)) {
                continue;
            }
            if (!index.containsKey(w)) {
                connect(w, g, index, low, stack, onStack, out, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> comp = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                comp.add(w);
            } while (!w.equals(v));
            if (comp.size() > 1) {
                out.add(Set.copyOf(comp));
            }
        }
    }

    @Test
    void theCoreHasOnlyTheKnownPackageCycles() throws IOException {
        Map<String, Set<String>> g = graph(Path.of("src", "main", "java"));
        assertEquals(KNOWN, cycles(g), "package cycles of libtp-core (graph: " + g + ")");
    }

    /** Every module's main code together, read from the build's module directories. */
    @Test
    void theModulesTogetherHaveNoPackageCycle() throws IOException {
        Map<String, Set<String>> g = new TreeMap<>();
        List<Path> roots;
        try (Stream<Path> modules = Files.list(Path.of("..").toAbsolutePath().normalize())) {
            roots = modules.filter(m -> m.getFileName().toString().startsWith("libtp-"))
                    .map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
        }
        assertTrue(roots.size() >= 7, "module source roots found: " + roots);
        for (Path root : roots) {
            graph(root).forEach((k, v) -> g.computeIfAbsent(k, x -> new TreeSet<>()).addAll(v));
        }
        assertEquals(Set.of(), cycles(g), "package cycles across the modules (graph: " + g + ")");
    }

    /** The transaction manager uses the lock manager, never the reverse. */
    @Test
    void theLockManagerDoesNotDependOnTheTransactionManager() throws IOException {
        Map<String, Set<String>> g = graph(Path.of("src", "main", "java"));
        assertEquals(Set.of(), g.get("org.libtp.core.lock").stream().filter(p -> p.startsWith("org.libtp.core.txn"))
                .collect(java.util.stream.Collectors.toSet()), "org.libtp.core.lock's dependencies on the transaction manager");
    }

    @Test
    void cyclesAreFound() {
        Map<String, Set<String>> g = new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"),
                "d", Set.of("a")));
        assertEquals(Set.of(Set.of("a", "b", "c")), cycles(g));
    }
}
