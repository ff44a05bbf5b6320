package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.AccessDeniedException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CleanUpTest {
    /**
     * A step that threw an Error (a StackOverflowError deleting a deep tree, an OutOfMemoryError) ended the clean-up
     * there: the steps after it never ran, and their folders stayed behind.
     */
    @Test
    void anErrorInOneStepStillRunsTheOthersAndIsThrownWithTheirFailures() {
        List<String> ran = new ArrayList<>();
        StackOverflowError error = new StackOverflowError("deleting a deep tree");
        CleanUp cleanUp = CleanUp.of(
            () -> ran.add("first"),
            () -> {
                ran.add("second");
                throw error;
            },
            () -> {
                ran.add("third");
                throw new AccessDeniedException("/x/new");
            },
            () -> ran.add("fourth"));
        StackOverflowError thrown = assertThrows(StackOverflowError.class, cleanUp::close);
        assertSame(error, thrown);
        assertEquals(List.of("first", "second", "third", "fourth"), ran);
        List<CleanUp.Failed> failures = CleanUp.Failed.in(thrown);
        assertEquals(1, failures.size(), "the third step's failure, suppressed in the error");
        assertEquals(AccessDeniedException.class, failures.get(0).getCause().getClass());
    }
}
