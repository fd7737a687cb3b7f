package org.libtp.bench.oo1;

import java.util.Arrays;

/**
 * A growable list of ints: the part ids an index scan finds, without boxing them (a traversal
 * collects thousands of them per run).
 */
public final class IntList {
    private int[] a = new int[8];
    private int n;

    public void add(int v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, n * 2);
        }
        a[n++] = v;
    }

    public int get(int i) {
        if (i < 0 || i >= n) {
            throw new IndexOutOfBoundsException("index " + i + " of " + n);
        }
        return a[i];
    }

    public int size() {
        return n;
    }

    public void clear() {
        n = 0;
    }

    public int[] toArray() {
        return Arrays.copyOf(a, n);
    }

    @Override
    public String toString() {
        return Arrays.toString(toArray());
    }
}
