package io.ratatosk.bench.ldbc.update;

import java.util.ArrayList;
import java.util.List;

/**
 * LDBC SNB Interactive's inserts IU1-IU8 with their fields, in the order of the update stream's
 * columns (after scheduledStartTime, dependencyTime and type) and by the names of LDBC's v1 driver,
 * which the dump uses too. Semantics in the design brief's ldbc-queries.md.
 */
public enum UpdateType {
    IU1("personId:id", "personFirstName:text", "personLastName:text", "gender:text", "birthday:id",
        "creationDate:id", "locationIP:text", "browserUsed:text", "cityId:id", "languages:texts", "emails:texts",
        "tagIds:ids", "studyAt:pairs", "workAt:pairs"),
    IU2("personId:id", "postId:id", "creationDate:id"),
    IU3("personId:id", "commentId:id", "creationDate:id"),
    IU4("forumId:id", "forumTitle:text", "creationDate:id", "moderatorPersonId:id", "tagIds:ids"),
    IU5("forumId:id", "personId:id", "joinDate:id"),
    IU6("postId:id", "imageFile:text", "creationDate:id", "locationIP:text", "browserUsed:text", "language:text",
        "content:text", "length:id", "authorPersonId:id", "forumId:id", "countryId:id", "tagIds:ids"),
    IU7("commentId:id", "creationDate:id", "locationIP:text", "browserUsed:text", "content:text", "length:id",
        "authorPersonId:id", "countryId:id", "replyToPostId:id", "replyToCommentId:id", "tagIds:ids"),
    IU8("person1Id:id", "person2Id:id", "creationDate:id");

    /** How a field's text becomes a value. */
    public enum Kind {
        /** A number (ids, dates, lengths): {@link Long}. */
        ID,
        /** A string as it is. */
        TEXT,
        /** A {@code ;}-joined list of strings: a list of {@link String}s, empty for an empty field. */
        TEXTS,
        /** A {@code ;}-joined list of numbers. */
        IDS,
        /** A {@code ;}-joined list of {@code id,year} pairs: a list of two-element lists of {@link Long}s. */
        PAIRS
    }

    private final List<String> fields = new ArrayList<>();
    private final List<Kind> kinds = new ArrayList<>();

    UpdateType(String... fieldsAndKinds) {
        for (String f : fieldsAndKinds) {
            int colon = f.indexOf(':');
            fields.add(f.substring(0, colon));
            kinds.add(Kind.valueOf(f.substring(colon + 1).toUpperCase(java.util.Locale.ROOT)));
        }
    }

    /** The number in the stream's type column: 1 for IU1 ... 8 for IU8. */
    public int code() {
        return ordinal() + 1;
    }

    public static UpdateType byCode(int code) {
        return code >= 1 && code <= values().length ? values()[code - 1] : null;
    }

    public List<String> fields() {
        return fields;
    }

    public Kind kind(int field) {
        return kinds.get(field);
    }
}
