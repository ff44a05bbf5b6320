package io.ratatosk.bench.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run deletes at its end whatever happened (its scratch files, the folders it made for its outputs, a file of its
 * own), as the resource of a try-with-resources around the run: where the run failed, its failure is the one thrown and
 * each clean-up's is attached to it ({@link Failed}, suppressed), so that a folder that would not go no longer hides why
 * the run failed; and every step runs, though one before it failed.
 */
public final class CleanUp implements AutoCloseable {
    /** One thing to delete. */
    @FunctionalInterface
    public interface Step {
        void run() throws IOException;
    }

    private final List<Step> steps;

    private CleanUp(List<Step> steps) {
        this.steps = steps;
    }

    public static CleanUp of(Step... steps) {
        return new CleanUp(List.of(steps));
    }

    /** Each of {@code files} closed, in order. */
    public static CleanUp closing(List<ScratchFiles> files) {
        List<Step> steps = new ArrayList<>();
        for (ScratchFiles file : files) {
            steps.add(file::close);
        }
        return new CleanUp(steps);
    }

    /**
     * Runs every step; the first failure is thrown, the later ones suppressed in it. An {@link Error} in a step (a
     * StackOverflowError deleting a deep tree, the heap full) does not stop the later steps either: it is thrown in
     * the end, as it is, with the steps' other failures suppressed in it.
     */
    @Override
    public void close() throws Failed {
        Failed first = null;
        Error error = null;
        for (Step step : steps) {
            try {
                step.run();
            } catch (IOException | RuntimeException e) {
                Failed failed = new Failed(e);
                if (first == null) {
                    first = failed;
                } else {
                    first.addSuppressed(failed);
                }
            } catch (Error e) {
                if (error == null) {
                    error = e;
                } else if (error != e) {
                    error.addSuppressed(e);
                }
            }
        }
        if (error != null) {
            if (first != null) {
                error.addSuppressed(first);
            }
            throw error;
        }
        if (first != null) {
            throw first;
        }
    }

    /** A clean-up's failure: thrown where the run itself succeeded, else suppressed in the run's failure. */
    public static final class Failed extends IOException {
        private static final long serialVersionUID = 1L;

        Failed(Exception cause) {
            super("could not clean up after the run: " + cause.getMessage(), cause);
        }

        /**
         * The clean-up failures attached to {@code failure} or a cause of it (a run's failure wrapped with words of the
         * caller's, "cannot write --json ..."), and those attached to them.
         */
        public static List<Failed> in(Throwable failure) {
            List<Failed> found = new ArrayList<>();
            for (Throwable t = failure; t != null && found.size() < 100; t = t.getCause() == t ? null : t.getCause()) {
                for (Throwable suppressed : t.getSuppressed()) {
                    if (suppressed instanceof Failed cleanUp) {
                        found.add(cleanUp);
                        found.addAll(in(cleanUp));
                    }
                }
            }
            return found;
        }
    }
}
