package io.dedupq.queue;

import java.util.ArrayList;
import java.util.List;

/**
 * A page over several lists read as if joined one after the other (a partitioned queue's lists in
 * partition order): which part of which list the page holds.
 */
final class PageSlices {

    /** Indexes {@code start..end} (inclusive, 0 is each list's first in reading order) of list {@code list}. */
    record Slice(int list, long start, long end) {
    }

    private PageSlices() {
    }

    /** The slices of the page of {@code limit} entries from {@code offset}, given the lists' lengths. */
    static List<Slice> of(List<Long> lengths, long offset, long limit) {
        List<Slice> slices = new ArrayList<>();
        long skip = offset;
        long wanted = limit;
        for (int i = 0; i < lengths.size() && wanted > 0; i++) {
            long length = lengths.get(i);
            if (skip < length) {
                long end = Math.min(length, skip + wanted) - 1;
                slices.add(new Slice(i, skip, end));
                wanted -= end - skip + 1;
                skip = 0;
            } else {
                skip -= length;
            }
        }
        return slices;
    }
}
