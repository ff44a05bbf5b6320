package io.ratatosk.bench.ldbc.update;

import static io.ratatosk.bench.ldbc.store.GraphStore.NONE;

import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.store.Direction;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.PropertyBatch;
import io.ratatosk.bench.ldbc.store.PropertyKey;
import io.ratatosk.bench.ldbc.store.RelType;
import io.ratatosk.bench.ldbc.store.StoreUpdater;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Applies IU1-IU8 to a graph store through its {@link StoreUpdater}, with the same nodes,
 * properties and relationships as the loader makes from the CSV files, so every read sees an
 * inserted row exactly as if it had been loaded. Each update is checked before anything is
 * written: an id it refers to must exist with the right label, and what it inserts (a node id, a
 * like, a membership, a friendship) must not exist yet; otherwise it fails with an error naming
 * the update stream's file and line, and the store is as it was before that update.
 */
public final class UpdateApplier {
    private final StoreUpdater updater;
    private final PropertyBatch batch = new PropertyBatch();
    private final PropertyBatch relProps = new PropertyBatch();

    public UpdateApplier(StoreUpdater updater) {
        this.updater = updater;
    }

    /** Checks and applies {@code u}, then publishes it to the store's readers. */
    public void apply(Update u) throws IOException {
        switch (u.type()) {
            case IU1 -> addPerson(u);
            case IU2 -> addLike(u, "postId", Label.POST);
            case IU3 -> addLike(u, "commentId", Label.COMMENT);
            case IU4 -> addForum(u);
            case IU5 -> addMembership(u);
            case IU6 -> addPost(u);
            case IU7 -> addComment(u);
            case IU8 -> addFriendship(u);
        }
        updater.publish();
    }

    private void addPerson(Update u) throws IOException {
        long id = u.id("personId");
        absent(u, Label.PERSON, id, "personId");
        int city = existing(u, Label.PLACE, u.id("cityId"), "cityId");
        List<Integer> tags = existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
        List<List<Long>> studyAt = u.list("studyAt");
        List<List<Long>> workAt = u.list("workAt");
        List<Integer> universities = new ArrayList<>();
        for (List<Long> s : studyAt) {
            universities.add(existing(u, Label.ORGANISATION, s.get(0), "studyAt"));
        }
        List<Integer> companies = new ArrayList<>();
        for (List<Long> w : workAt) {
            companies.add(existing(u, Label.ORGANISATION, w.get(0), "workAt"));
        }
        batch.clear()
            .addLong(PropertyKey.CREATION_DATE, u.id("creationDate"))
            .addString(PropertyKey.FIRST_NAME, u.text("personFirstName"))
            .addString(PropertyKey.LAST_NAME, u.text("personLastName"))
            .addString(PropertyKey.GENDER, u.text("gender"))
            .addLong(PropertyKey.BIRTHDAY, u.id("birthday"))
            .addString(PropertyKey.LOCATION_IP, u.text("locationIP"))
            .addString(PropertyKey.BROWSER_USED, u.text("browserUsed"))
            .addString(PropertyKey.LANGUAGE, String.join(";", u.<String>list("languages")))
            .addString(PropertyKey.EMAIL, String.join(";", u.<String>list("emails")));
        int person = updater.addNode(Label.PERSON, id, batch);
        for (int t : tags) {
            updater.addRelationship(RelType.HAS_INTEREST, person, t, null);
        }
        for (int i = 0; i < universities.size(); i++) {
            updater.addRelationship(RelType.STUDY_AT, person, universities.get(i),
                relProps.clear().addLong(PropertyKey.CLASS_YEAR, studyAt.get(i).get(1)));
        }
        for (int i = 0; i < companies.size(); i++) {
            updater.addRelationship(RelType.WORK_AT, person, companies.get(i),
                relProps.clear().addLong(PropertyKey.WORK_FROM, workAt.get(i).get(1)));
        }
        updater.addRelationship(RelType.IS_LOCATED_IN, person, city, null);
    }

    private void addLike(Update u, String messageField, Label label) throws IOException {
        int person = existing(u, Label.PERSON, u.id("personId"), "personId");
        int message = existing(u, label, u.id(messageField), messageField);
        if (related(person, RelType.LIKES, Direction.OUTGOING, message)) {
            throw error(u, "person " + u.id("personId") + " likes " + label.name().toLowerCase(Locale.ROOT) + " "
                + u.id(messageField) + " already");
        }
        updater.addRelationship(RelType.LIKES, person, message,
            relProps.clear().addLong(PropertyKey.CREATION_DATE, u.id("creationDate")));
    }

    private void addForum(Update u) throws IOException {
        long id = u.id("forumId");
        absent(u, Label.FORUM, id, "forumId");
        int moderator = existing(u, Label.PERSON, u.id("moderatorPersonId"), "moderatorPersonId");
        List<Integer> tags = existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
        batch.clear().addLong(PropertyKey.CREATION_DATE, u.id("creationDate"))
            .addString(PropertyKey.TITLE, u.text("forumTitle"));
        int forum = updater.addNode(Label.FORUM, id, batch);
        for (int t : tags) {
            updater.addRelationship(RelType.HAS_TAG, forum, t, null);
        }
        updater.addRelationship(RelType.HAS_MODERATOR, forum, moderator, null);
    }

    private void addMembership(Update u) throws IOException {
        int forum = existing(u, Label.FORUM, u.id("forumId"), "forumId");
        int person = existing(u, Label.PERSON, u.id("personId"), "personId");
        if (related(forum, RelType.HAS_MEMBER, Direction.OUTGOING, person)) {
            throw error(u, "person " + u.id("personId") + " is a member of forum " + u.id("forumId") + " already");
        }
        updater.addRelationship(RelType.HAS_MEMBER, forum, person,
            relProps.clear().addLong(PropertyKey.JOIN_DATE, u.id("joinDate")));
    }

    private void addPost(Update u) throws IOException {
        long id = u.id("postId");
        absent(u, Label.POST, id, "postId");
        int author = existing(u, Label.PERSON, u.id("authorPersonId"), "authorPersonId");
        int forum = existing(u, Label.FORUM, u.id("forumId"), "forumId");
        int country = existing(u, Label.PLACE, u.id("countryId"), "countryId");
        List<Integer> tags = existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
        batch.clear().addLong(PropertyKey.CREATION_DATE, u.id("creationDate"))
            .addString(PropertyKey.IMAGE_FILE, u.text("imageFile"))
            .addString(PropertyKey.LOCATION_IP, u.text("locationIP"))
            .addString(PropertyKey.BROWSER_USED, u.text("browserUsed"))
            .addString(PropertyKey.LANGUAGE, u.text("language"))
            .addString(PropertyKey.CONTENT, u.text("content"))
            .addLong(PropertyKey.LENGTH, u.id("length"));
        int post = updater.addNode(Label.POST, id, batch);
        for (int t : tags) {
            updater.addRelationship(RelType.HAS_TAG, post, t, null);
        }
        updater.addRelationship(RelType.CONTAINER_OF, forum, post, null);
        updater.addRelationship(RelType.IS_LOCATED_IN, post, country, null);
        updater.addRelationship(RelType.HAS_CREATOR, post, author, null);
    }

    private void addComment(Update u) throws IOException {
        long id = u.id("commentId");
        absent(u, Label.COMMENT, id, "commentId");
        int author = existing(u, Label.PERSON, u.id("authorPersonId"), "authorPersonId");
        int country = existing(u, Label.PLACE, u.id("countryId"), "countryId");
        long toPost = u.id("replyToPostId");
        long toComment = u.id("replyToCommentId");
        if ((toPost == -1) == (toComment == -1)) {
            throw error(u, "exactly one of replyToPostId (" + toPost + ") and replyToCommentId (" + toComment
                + ") must be -1");
        }
        int parent = toPost != -1 ? existing(u, Label.POST, toPost, "replyToPostId")
            : existing(u, Label.COMMENT, toComment, "replyToCommentId");
        List<Integer> tags = existingAll(u, Label.TAG, u.list("tagIds"), "tagIds");
        batch.clear().addLong(PropertyKey.CREATION_DATE, u.id("creationDate"))
            .addString(PropertyKey.LOCATION_IP, u.text("locationIP"))
            .addString(PropertyKey.BROWSER_USED, u.text("browserUsed"))
            .addString(PropertyKey.CONTENT, u.text("content"))
            .addLong(PropertyKey.LENGTH, u.id("length"));
        int comment = updater.addNode(Label.COMMENT, id, batch);
        for (int t : tags) {
            updater.addRelationship(RelType.HAS_TAG, comment, t, null);
        }
        updater.addRelationship(RelType.IS_LOCATED_IN, comment, country, null);
        updater.addRelationship(RelType.HAS_CREATOR, comment, author, null);
        updater.addRelationship(RelType.REPLY_OF, comment, parent, null);
    }

    private void addFriendship(Update u) throws IOException {
        int a = existing(u, Label.PERSON, u.id("person1Id"), "person1Id");
        int b = existing(u, Label.PERSON, u.id("person2Id"), "person2Id");
        if (a == b) {
            throw error(u, "a person cannot befriend themselves: " + u.id("person1Id"));
        }
        if (related(a, RelType.KNOWS, Direction.BOTH, b)) {
            throw error(u, "persons " + u.id("person1Id") + " and " + u.id("person2Id") + " know each other already");
        }
        updater.addRelationship(RelType.KNOWS, a, b,
            relProps.clear().addLong(PropertyKey.CREATION_DATE, u.id("creationDate")));
    }

    // ---- checks ------------------------------------------------------------------------------------

    private int existing(Update u, Label label, long id, String field) throws IOException {
        int node = updater.nodeById(label, id);
        if (node == NONE || updater.label(node) != label) {
            throw error(u, field + " " + id + " is no " + label.name().toLowerCase(Locale.ROOT) + " of the store");
        }
        return node;
    }

    private List<Integer> existingAll(Update u, Label label, List<Long> ids, String field) throws IOException {
        List<Integer> nodes = new ArrayList<>();
        for (long id : ids) {
            nodes.add(existing(u, label, id, field));
        }
        return nodes;
    }

    private void absent(Update u, Label label, long id, String field) throws IOException {
        if (updater.nodeById(label, id) != NONE) {
            throw error(u, field + " " + id + " exists already");
        }
    }

    private boolean related(int node, RelType type, Direction direction, int other) throws IOException {
        boolean[] found = {false};
        updater.reader().relationships(node, type, direction, (o, props) -> {
            found[0] = o == other;
            return !found[0];
        });
        return found[0];
    }

    static LdbcDataException error(Update u, String problem) {
        return LdbcDataException.at(u.file(), u.line(), u.type() + ": " + problem);
    }
}
