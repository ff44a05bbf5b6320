package io.ratatosk.bench.ldbc.load;

import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.PropertyKey;
import io.ratatosk.bench.ldbc.store.RelType;
import java.util.List;

/**
 * The LDBC SNB CSV files the store is loaded from (the "vanilla"/CsvComposite layout of the
 * interactive sample), with their exact headers: node files in load order, then edge files in
 * load order.
 */
public final class LdbcSchema {
    private LdbcSchema() {
    }

    /** One entity file: its columns map to property keys, the first column being the LDBC id. */
    public record NodeFile(String folder, String baseName, Label label, List<String> header, List<PropertyKey> keys) {
        public NodeFile {
            if (header.size() != keys.size() || keys.get(0) != PropertyKey.ID) {
                throw new IllegalArgumentException("header and keys must match, id first: " + baseName);
            }
        }
    }

    /** One relation file: {@code from.id|to.id[|property]}. */
    public record EdgeFile(String folder, String baseName, Label from, Label to, RelType type, List<String> header,
                           PropertyKey property) {
    }

    public static final List<NodeFile> NODE_FILES = List.of(
        node("static", "place", Label.PLACE, "id|name|url|type",
            PropertyKey.ID, PropertyKey.NAME, PropertyKey.URL, PropertyKey.TYPE),
        node("static", "organisation", Label.ORGANISATION, "id|type|name|url",
            PropertyKey.ID, PropertyKey.TYPE, PropertyKey.NAME, PropertyKey.URL),
        node("static", "tagclass", Label.TAGCLASS, "id|name|url",
            PropertyKey.ID, PropertyKey.NAME, PropertyKey.URL),
        node("static", "tag", Label.TAG, "id|name|url",
            PropertyKey.ID, PropertyKey.NAME, PropertyKey.URL),
        node("dynamic", "person", Label.PERSON,
            "id|firstName|lastName|gender|birthday|creationDate|locationIP|browserUsed|language|email",
            PropertyKey.ID, PropertyKey.FIRST_NAME, PropertyKey.LAST_NAME, PropertyKey.GENDER, PropertyKey.BIRTHDAY,
            PropertyKey.CREATION_DATE, PropertyKey.LOCATION_IP, PropertyKey.BROWSER_USED, PropertyKey.LANGUAGE,
            PropertyKey.EMAIL),
        node("dynamic", "forum", Label.FORUM, "id|title|creationDate",
            PropertyKey.ID, PropertyKey.TITLE, PropertyKey.CREATION_DATE),
        node("dynamic", "post", Label.POST, "id|imageFile|creationDate|locationIP|browserUsed|language|content|length",
            PropertyKey.ID, PropertyKey.IMAGE_FILE, PropertyKey.CREATION_DATE, PropertyKey.LOCATION_IP,
            PropertyKey.BROWSER_USED, PropertyKey.LANGUAGE, PropertyKey.CONTENT, PropertyKey.LENGTH),
        node("dynamic", "comment", Label.COMMENT, "id|creationDate|locationIP|browserUsed|content|length",
            PropertyKey.ID, PropertyKey.CREATION_DATE, PropertyKey.LOCATION_IP, PropertyKey.BROWSER_USED,
            PropertyKey.CONTENT, PropertyKey.LENGTH));

    /**
     * Load order. The files of one relationship type come together, so every node's chain is grouped
     * by type (which lets a walk stop at the end of its type's run); the types walked most are loaded
     * last and so lie at the head of the chains.
     */
    public static final List<EdgeFile> EDGE_FILES = List.of(
        edge("static", "tag_hasType_tagclass", Label.TAG, Label.TAGCLASS, RelType.HAS_TYPE, null),
        edge("static", "tagclass_isSubclassOf_tagclass", Label.TAGCLASS, Label.TAGCLASS, RelType.IS_SUBCLASS_OF, null),
        edge("static", "place_isPartOf_place", Label.PLACE, Label.PLACE, RelType.IS_PART_OF, null),
        edge("dynamic", "person_hasInterest_tag", Label.PERSON, Label.TAG, RelType.HAS_INTEREST, null),
        edge("dynamic", "forum_hasTag_tag", Label.FORUM, Label.TAG, RelType.HAS_TAG, null),
        edge("dynamic", "post_hasTag_tag", Label.POST, Label.TAG, RelType.HAS_TAG, null),
        edge("dynamic", "comment_hasTag_tag", Label.COMMENT, Label.TAG, RelType.HAS_TAG, null),
        edge("dynamic", "person_likes_post", Label.PERSON, Label.POST, RelType.LIKES, PropertyKey.CREATION_DATE),
        edge("dynamic", "person_likes_comment", Label.PERSON, Label.COMMENT, RelType.LIKES, PropertyKey.CREATION_DATE),
        edge("dynamic", "forum_hasMember_person", Label.FORUM, Label.PERSON, RelType.HAS_MEMBER, PropertyKey.JOIN_DATE),
        edge("dynamic", "forum_containerOf_post", Label.FORUM, Label.POST, RelType.CONTAINER_OF, null),
        edge("dynamic", "forum_hasModerator_person", Label.FORUM, Label.PERSON, RelType.HAS_MODERATOR, null),
        edge("dynamic", "person_studyAt_organisation", Label.PERSON, Label.ORGANISATION, RelType.STUDY_AT,
            PropertyKey.CLASS_YEAR),
        edge("dynamic", "person_workAt_organisation", Label.PERSON, Label.ORGANISATION, RelType.WORK_AT,
            PropertyKey.WORK_FROM),
        edge("dynamic", "post_isLocatedIn_place", Label.POST, Label.PLACE, RelType.IS_LOCATED_IN, null),
        edge("dynamic", "comment_isLocatedIn_place", Label.COMMENT, Label.PLACE, RelType.IS_LOCATED_IN, null),
        edge("dynamic", "person_isLocatedIn_place", Label.PERSON, Label.PLACE, RelType.IS_LOCATED_IN, null),
        edge("static", "organisation_isLocatedIn_place", Label.ORGANISATION, Label.PLACE, RelType.IS_LOCATED_IN, null),
        edge("dynamic", "post_hasCreator_person", Label.POST, Label.PERSON, RelType.HAS_CREATOR, null),
        edge("dynamic", "comment_hasCreator_person", Label.COMMENT, Label.PERSON, RelType.HAS_CREATOR, null),
        edge("dynamic", "comment_replyOf_post", Label.COMMENT, Label.POST, RelType.REPLY_OF, null),
        edge("dynamic", "comment_replyOf_comment", Label.COMMENT, Label.COMMENT, RelType.REPLY_OF, null),
        edge("dynamic", "person_knows_person", Label.PERSON, Label.PERSON, RelType.KNOWS, PropertyKey.CREATION_DATE));

    private static NodeFile node(String folder, String baseName, Label label, String header, PropertyKey... keys) {
        return new NodeFile(folder, baseName, label, List.of(header.split("\\|")), List.of(keys));
    }

    private static EdgeFile edge(String folder, String baseName, Label from, Label to, RelType type,
                                 PropertyKey property) {
        String header = typeName(from) + ".id|" + typeName(to) + ".id" + (property == null ? "" : "|" + columnOf(property));
        return new EdgeFile(folder, baseName, from, to, type, List.of(header.split("\\|")), property);
    }

    /** The entity name LDBC's edge headers use: Person, Post, TagClass, ... */
    public static String typeName(Label label) {
        return switch (label) {
            case PLACE -> "Place";
            case ORGANISATION -> "Organisation";
            case TAGCLASS -> "TagClass";
            case TAG -> "Tag";
            case PERSON -> "Person";
            case FORUM -> "Forum";
            case POST -> "Post";
            case COMMENT -> "Comment";
        };
    }

    private static String columnOf(PropertyKey key) {
        return switch (key) {
            case CREATION_DATE -> "creationDate";
            case JOIN_DATE -> "joinDate";
            case CLASS_YEAR -> "classYear";
            case WORK_FROM -> "workFrom";
            default -> throw new IllegalArgumentException("no edge column for " + key);
        };
    }
}
