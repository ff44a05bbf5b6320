package io.ratatosk.bench.ldbc.update;

import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.bench.ldbc.store.StoreUpdater;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks a whole update stream's ids before the first run, so that a bad stream is refused in seconds and
 * not when a run reaches the bad update minutes in: in execution order, every id an update refers to must
 * be a node of the right label in the loaded store or one an earlier update adds, and every id it adds
 * must be neither. The errors are {@link UpdateApplier}'s, naming the update stream's file and line, and
 * the applier still checks each update as it applies it (this pass does not look at relationships: a
 * like, membership or friendship that exists already is found there).
 */
public final class UpdatePrecheck {
    /** The largest id the store's id index takes (IdIndexLayout.MAX_LDBC_ID: 56 bits, the id space above them). */
    private static final long MAX_ID = (1L << 56) - 1;
    private final StoreReader reader;
    /** The nodes earlier updates add, by id space and id, as the id index files them (posts and comments share a space). */
    private final Map<IndexedId, Added> added = new HashMap<>();

    private record IndexedId(int idSpace, long id) {
        IndexedId(Label label, long id) {
            this(label.idSpace(), id);
        }
    }

    private record Added(Label label, Update by) {
    }

    private UpdatePrecheck(StoreReader reader) {
        this.reader = reader;
    }

    /**
     * Checks {@code updates} (in execution order) against the loaded store {@code reader} reads; returns the ids of the
     * persons they add, which the substitution parameters may name too.
     */
    public static Set<Long> check(StoreReader reader, List<Update> updates) throws IOException {
        UpdatePrecheck check = new UpdatePrecheck(reader);
        for (Update u : updates) {
            check.check(u);
        }
        // The id index does not grow: a stream that adds more nodes than it has room for stopped a run in its middle.
        long room = StoreUpdater.indexRoom(reader.meta());
        if (check.added.size() > room) {
            throw new LdbcDataException(String.format(Locale.ROOT, "the update streams add %,d nodes, and the id index of"
                + " the loaded store (%,d keys in %,d slots) takes %,d more: it was loaded before the streams held them;"
                + " --reload loads it again with room for them", check.added.size(), reader.meta().indexKeys(),
                reader.meta().indexCapacity(), room));
        }
        return check.added(Label.PERSON);
    }

    /** The ids of the nodes of {@code label} the updates checked so far add. */
    private Set<Long> added(Label label) {
        Set<Long> ids = new HashSet<>();
        added.forEach((key, a) -> {
            if (a.label() == label) {
                ids.add(key.id());
            }
        });
        return ids;
    }

    /** The checks of {@link UpdateApplier}, in its order, so the first error is the one the run would give. */
    private void check(Update u) throws IOException {
        switch (u.type()) {
            case IU1 -> {
                absent(u, Label.PERSON, "personId");
                existing(u, Label.PLACE, u.id("cityId"), "cityId");
                existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
                for (List<Long> s : u.<List<Long>>list("studyAt")) {
                    existing(u, Label.ORGANISATION, s.get(0), "studyAt");
                }
                for (List<Long> w : u.<List<Long>>list("workAt")) {
                    existing(u, Label.ORGANISATION, w.get(0), "workAt");
                }
                add(u, Label.PERSON, "personId");
            }
            case IU2 -> like(u, "postId", Label.POST);
            case IU3 -> like(u, "commentId", Label.COMMENT);
            case IU4 -> {
                absent(u, Label.FORUM, "forumId");
                existing(u, Label.PERSON, u.id("moderatorPersonId"), "moderatorPersonId");
                existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
                add(u, Label.FORUM, "forumId");
            }
            case IU5 -> {
                existing(u, Label.FORUM, u.id("forumId"), "forumId");
                existing(u, Label.PERSON, u.id("personId"), "personId");
            }
            case IU6 -> {
                absent(u, Label.POST, "postId");
                existing(u, Label.PERSON, u.id("authorPersonId"), "authorPersonId");
                existing(u, Label.FORUM, u.id("forumId"), "forumId");
                existing(u, Label.PLACE, u.id("countryId"), "countryId");
                existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
                add(u, Label.POST, "postId");
            }
            case IU7 -> {
                absent(u, Label.COMMENT, "commentId");
                existing(u, Label.PERSON, u.id("authorPersonId"), "authorPersonId");
                existing(u, Label.PLACE, u.id("countryId"), "countryId");
                long toPost = u.id("replyToPostId");
                long toComment = u.id("replyToCommentId");
                if ((toPost == -1) == (toComment == -1)) {
                    throw UpdateApplier.error(u, "exactly one of replyToPostId (" + toPost + ") and replyToCommentId ("
                        + toComment + ") must be -1");
                }
                if (toPost != -1) {
                    existing(u, Label.POST, toPost, "replyToPostId");
                } else {
                    existing(u, Label.COMMENT, toComment, "replyToCommentId");
                }
                existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
                add(u, Label.COMMENT, "commentId");
            }
            case IU8 -> {
                existing(u, Label.PERSON, u.id("person1Id"), "person1Id");
                existing(u, Label.PERSON, u.id("person2Id"), "person2Id");
                if (u.id("person1Id") == u.id("person2Id")) {
                    throw UpdateApplier.error(u, "a person cannot befriend themselves: " + u.id("person1Id"));
                }
            }
        }
    }

    /** A person's like of a post or a comment: one check for both, as the applier's addLike. */
    private void like(Update u, String messageField, Label label) throws IOException {
        existing(u, Label.PERSON, u.id("personId"), "personId");
        existing(u, label, u.id(messageField), messageField);
    }

    private void existing(Update u, Label label, long id, String field) throws IOException {
        Added a = added.get(new IndexedId(label, id));
        boolean found;
        if (a != null) {
            found = a.label() == label;
        } else {
            int node = reader.nodeById(label, id);
            found = node != GraphStore.NONE && reader.label(node) == label;
        }
        if (!found) {
            throw UpdateApplier.error(u, field + " " + id + " is no " + label.name().toLowerCase(Locale.ROOT)
                + " of the store");
        }
    }

    private void existingAll(Update u, Label label, List<Long> ids, String field) throws IOException {
        for (long id : ids) {
            existing(u, label, id, field);
        }
    }

    private void absent(Update u, Label label, String field) throws IOException {
        long id = u.id(field);
        if (id < 0 || id > MAX_ID) {
            // The store would refuse it mid-run without naming the update.
            throw UpdateApplier.error(u, field + " " + id + " is outside [0, " + MAX_ID + "]");
        }
        Added a = added.get(new IndexedId(label, id));
        if (a != null) {
            throw UpdateApplier.error(u, field + " " + id + " exists already (added by " + a.by().where() + ")");
        }
        if (reader.nodeById(label, id) != GraphStore.NONE) {
            throw UpdateApplier.error(u, field + " " + id + " exists already");
        }
    }

    private void add(Update u, Label label, String field) {
        added.put(new IndexedId(label, u.id(field)), new Added(label, u));
    }
}
