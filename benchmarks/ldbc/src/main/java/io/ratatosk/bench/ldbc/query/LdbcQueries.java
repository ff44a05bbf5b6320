package io.ratatosk.bench.ldbc.query;

import static io.ratatosk.bench.ldbc.store.GraphStore.NONE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.BIRTHDAY;
import static io.ratatosk.bench.ldbc.store.PropertyKey.BROWSER_USED;
import static io.ratatosk.bench.ldbc.store.PropertyKey.CLASS_YEAR;
import static io.ratatosk.bench.ldbc.store.PropertyKey.CONTENT;
import static io.ratatosk.bench.ldbc.store.PropertyKey.CREATION_DATE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.EMAIL;
import static io.ratatosk.bench.ldbc.store.PropertyKey.FIRST_NAME;
import static io.ratatosk.bench.ldbc.store.PropertyKey.GENDER;
import static io.ratatosk.bench.ldbc.store.PropertyKey.ID;
import static io.ratatosk.bench.ldbc.store.PropertyKey.IMAGE_FILE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.LANGUAGE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.LAST_NAME;
import static io.ratatosk.bench.ldbc.store.PropertyKey.LOCATION_IP;
import static io.ratatosk.bench.ldbc.store.PropertyKey.NAME;
import static io.ratatosk.bench.ldbc.store.PropertyKey.TITLE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.WORK_FROM;

import io.ratatosk.bench.ldbc.store.Direction;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.PropertyKey;
import io.ratatosk.bench.ldbc.store.PropertyValues;
import io.ratatosk.bench.ldbc.store.RelType;
import io.ratatosk.bench.ldbc.store.StoreReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * IS1-IS7 and IC1-IC14 on a graph store, exactly as docs/ldbc.md (from the design
 * brief's ldbc-queries.md) defines them. Each returns its rows, each row its columns in order: ids,
 * dates and numbers as {@link Long}, strings as in the CSV, booleans as {@link Boolean}, IC1's
 * lists as {@link List}s. An unknown person or message gives no rows (IC13: -1).
 *
 * <p>Where the specification's sort keys can tie, the message or comment id breaks the tie (IS7),
 * so that results are deterministic; the more complex reads are in {@link LdbcComplexReads}. Not
 * thread-safe: one per {@link StoreReader}.
 */
public final class LdbcQueries {
    private static final int PERSON_NAME = PropertyKey.mask(ID, FIRST_NAME, LAST_NAME);
    private static final int ID_AND_DATE = PropertyKey.mask(ID, CREATION_DATE);
    private static final int MESSAGE_CONTENT = PropertyKey.mask(CONTENT, IMAGE_FILE);

    /** Creation date descending, then id ascending: the order of IC2, IC8, IC9. */
    private static final Comparator<Message> NEWEST_FIRST_ID_ASC =
        Comparator.comparingLong(Message::date).reversed().thenComparingLong(Message::id);

    private final StoreReader r;
    private final LdbcComplexReads more;

    public LdbcQueries(StoreReader reader) {
        this.r = reader;
        this.more = new LdbcComplexReads(reader, this);
    }

    /** A message or comment with the sort keys read, and whose it is when that is known. */
    private record Message(int node, long id, long date, int person) {
    }

    /** Runs {@code query} and returns its rows. */
    public List<List<Object>> run(Query q) throws IOException {
        return switch (q.type()) {
            case IS1 -> is1(q.longParam("personId"));
            case IS2 -> is2(q.longParam("personId"));
            case IS3 -> is3(q.longParam("personId"));
            case IS4 -> is4(q.longParam("messageId"));
            case IS5 -> is5(q.longParam("messageId"));
            case IS6 -> is6(q.longParam("messageId"));
            case IS7 -> is7(q.longParam("messageId"));
            case IC1 -> ic1(q.longParam("personId"), q.stringParam("firstName"));
            case IC2 -> ic2(q.longParam("personId"), q.longParam("maxDate"));
            case IC3 -> more.ic3(q.longParam("personId"), q.longParam("startDate"), q.longParam("durationDays"),
                q.stringParam("countryXName"), q.stringParam("countryYName"));
            case IC4 -> more.ic4(q.longParam("personId"), q.longParam("startDate"), q.longParam("durationDays"));
            case IC5 -> more.ic5(q.longParam("personId"), q.longParam("minDate"));
            case IC6 -> more.ic6(q.longParam("personId"), q.stringParam("tagName"));
            case IC7 -> more.ic7(q.longParam("personId"));
            case IC8 -> ic8(q.longParam("personId"));
            case IC9 -> ic9(q.longParam("personId"), q.longParam("maxDate"));
            case IC10 -> more.ic10(q.longParam("personId"), q.longParam("month"));
            case IC11 -> more.ic11(q.longParam("personId"), q.stringParam("countryName"), q.longParam("workFromYear"));
            case IC12 -> more.ic12(q.longParam("personId"), q.stringParam("tagClassName"));
            case IC13 -> ic13(q.longParam("person1Id"), q.longParam("person2Id"));
            case IC14 -> more.ic14(q.longParam("person1Id"), q.longParam("person2Id"));
        };
    }

    // ---- short reads -------------------------------------------------------------------------------

    /** IS1: firstName, lastName, birthday, locationIP, browserUsed, cityId, gender, creationDate. */
    public List<List<Object>> is1(long personId) throws IOException {
        int p = r.nodeById(Label.PERSON, personId);
        if (p == NONE) {
            return List.of();
        }
        PropertyValues v = r.properties(p, PropertyValues.of(FIRST_NAME, LAST_NAME, BIRTHDAY, LOCATION_IP,
            BROWSER_USED, GENDER, CREATION_DATE));
        int city = r.single(p, RelType.IS_LOCATED_IN, Direction.OUTGOING);
        return List.of(row(v.getString(FIRST_NAME), v.getString(LAST_NAME), v.getLong(BIRTHDAY),
            v.getString(LOCATION_IP), v.getString(BROWSER_USED), city == NONE ? null : r.ldbcId(city),
            v.getString(GENDER), v.getLong(CREATION_DATE)));
    }

    /**
     * IS2: the person's 10 latest messages (creationDate desc, messageId desc): messageId,
     * messageContent, messageCreationDate, originalPostId, originalPostAuthorId, its first and last name.
     */
    public List<List<Object>> is2(long personId) throws IOException {
        int p = r.nodeById(Label.PERSON, personId);
        if (p == NONE) {
            return List.of();
        }
        Comparator<Message> order = Comparator.comparingLong(Message::date).thenComparingLong(Message::id).reversed();
        TopK<Message> latest = new TopK<>(10, order);
        r.relationships(p, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> {
            latest.offer(message(m, p));
            return true;
        });
        List<List<Object>> rows = new ArrayList<>();
        for (Message m : latest.sorted()) {
            int root = rootPost(m.node());
            int author = creator(root);
            PropertyValues a = r.properties(author, new PropertyValues(PERSON_NAME));
            rows.add(row(m.id(), content(m.node()), m.date(), r.ldbcId(root), a.getLong(ID),
                a.getString(FIRST_NAME), a.getString(LAST_NAME)));
        }
        return rows;
    }

    /** IS3: personId, firstName, lastName, friendshipCreationDate (date desc, personId asc). */
    public List<List<Object>> is3(long personId) throws IOException {
        int p = r.nodeById(Label.PERSON, personId);
        if (p == NONE) {
            return List.of();
        }
        List<List<Object>> rows = new ArrayList<>();
        r.relationships(p, RelType.KNOWS, Direction.BOTH, (friend, rel) -> {
            long since = r.relationshipLongProperty(rel, CREATION_DATE);
            PropertyValues f = r.properties(friend, new PropertyValues(PERSON_NAME));
            rows.add(row(f.getLong(ID), f.getString(FIRST_NAME), f.getString(LAST_NAME), since));
            return true;
        });
        rows.sort(Comparator.<List<Object>>comparingLong(row -> (Long) row.get(3)).reversed()
            .thenComparingLong(row -> (Long) row.get(0)));
        return rows;
    }

    /** IS4: messageCreationDate, messageContent. */
    public List<List<Object>> is4(long messageId) throws IOException {
        int m = r.nodeById(Label.POST, messageId);
        if (m == NONE) {
            return List.of();
        }
        return List.of(row(r.longProperty(m, CREATION_DATE), content(m)));
    }

    /** IS5: the creator's personId, firstName, lastName. */
    public List<List<Object>> is5(long messageId) throws IOException {
        int m = r.nodeById(Label.POST, messageId);
        if (m == NONE) {
            return List.of();
        }
        PropertyValues c = r.properties(creator(m), new PropertyValues(PERSON_NAME));
        return List.of(row(c.getLong(ID), c.getString(FIRST_NAME), c.getString(LAST_NAME)));
    }

    /** IS6: forumId, forumTitle, moderatorId, moderatorFirstName, moderatorLastName of the root post's forum. */
    public List<List<Object>> is6(long messageId) throws IOException {
        int m = r.nodeById(Label.POST, messageId);
        if (m == NONE) {
            return List.of();
        }
        int forum = r.single(rootPost(m), RelType.CONTAINER_OF, Direction.INCOMING);
        if (forum == NONE) {
            return List.of();
        }
        PropertyValues f = r.properties(forum, PropertyValues.of(ID, TITLE));
        int moderator = r.single(forum, RelType.HAS_MODERATOR, Direction.OUTGOING);
        if (moderator == NONE) {
            return List.of();
        }
        PropertyValues mod = r.properties(moderator, new PropertyValues(PERSON_NAME));
        return List.of(row(f.getLong(ID), f.getString(TITLE), mod.getLong(ID), mod.getString(FIRST_NAME),
            mod.getString(LAST_NAME)));
    }

    /**
     * IS7: direct replies: commentId, commentContent, commentCreationDate, replyAuthorId, first and
     * last name, replyAuthorKnowsOriginalMessageAuthor (date desc, replyAuthorId asc, commentId asc).
     */
    public List<List<Object>> is7(long messageId) throws IOException {
        int m = r.nodeById(Label.POST, messageId);
        if (m == NONE) {
            return List.of();
        }
        int author = creator(m);
        List<Integer> replies = new ArrayList<>();
        r.relationships(m, RelType.REPLY_OF, Direction.INCOMING, (c, rel) -> replies.add(c));
        List<List<Object>> rows = new ArrayList<>();
        for (int c : replies) {
            PropertyValues cv = r.properties(c, PropertyValues.of(ID, CREATION_DATE, CONTENT));
            int replier = creator(c);
            PropertyValues a = r.properties(replier, new PropertyValues(PERSON_NAME));
            boolean knows = replier != author && knows(replier, author);
            rows.add(row(cv.getLong(ID), cv.getString(CONTENT), cv.getLong(CREATION_DATE), a.getLong(ID),
                a.getString(FIRST_NAME), a.getString(LAST_NAME), knows));
        }
        rows.sort(Comparator.<List<Object>>comparingLong(row -> (Long) row.get(2)).reversed()
            .thenComparingLong(row -> (Long) row.get(3)).thenComparingLong(row -> (Long) row.get(0)));
        return rows;
    }

    // ---- complex reads -----------------------------------------------------------------------------

    /**
     * IC1: persons named {@code firstName} 1 to 3 knows-hops away (the start person excluded), by
     * distance, lastName, id; 20 at most, with their profile, city, universities and companies.
     */
    public List<List<Object>> ic1(long personId, String firstName) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        record Match(int node, int distance, String lastName, long id) {
        }
        List<Match> matches = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        seen.add(start);
        List<Integer> frontier = List.of(start);
        for (int distance = 1; distance <= 3 && !frontier.isEmpty(); distance++) {
            List<Integer> next = new ArrayList<>();
            for (int p : frontier) {
                r.relationships(p, RelType.KNOWS, Direction.BOTH, (f, rel) -> {
                    if (seen.add(f)) {
                        next.add(f);
                    }
                    return true;
                });
            }
            for (int f : next) {
                PropertyValues v = r.properties(f, new PropertyValues(PERSON_NAME));
                if (v.getString(FIRST_NAME).equals(firstName)) {
                    matches.add(new Match(f, distance, v.getString(LAST_NAME), v.getLong(ID)));
                }
            }
            frontier = next;
        }
        matches.sort(Comparator.comparingInt(Match::distance).thenComparing(Match::lastName)
            .thenComparingLong(Match::id));
        List<List<Object>> rows = new ArrayList<>();
        for (Match m : matches.subList(0, Math.min(20, matches.size()))) {
            PropertyValues v = r.properties(m.node(), PropertyValues.of(BIRTHDAY, CREATION_DATE, GENDER,
                BROWSER_USED, LOCATION_IP, EMAIL, LANGUAGE));
            int city = r.single(m.node(), RelType.IS_LOCATED_IN, Direction.OUTGOING);
            rows.add(row(m.id(), m.lastName(), (long) m.distance(), v.getLong(BIRTHDAY), v.getLong(CREATION_DATE),
                v.getString(GENDER), v.getString(BROWSER_USED), v.getString(LOCATION_IP), list(v.getString(EMAIL)),
                list(v.getString(LANGUAGE)), city == NONE ? null : name(city),
                organisations(m.node(), RelType.STUDY_AT, CLASS_YEAR),
                organisations(m.node(), RelType.WORK_AT, WORK_FROM)));
        }
        return rows;
    }

    /** [[organisation name, year, name of the place it is in]], sorted, for IC1. */
    private List<List<Object>> organisations(int person, RelType type, PropertyKey year) throws IOException {
        List<List<Object>> orgs = new ArrayList<>();
        r.relationships(person, type, Direction.OUTGOING, (org, rel) -> {
            long y = r.relationshipLongProperty(rel, year);
            int place = r.single(org, RelType.IS_LOCATED_IN, Direction.OUTGOING);
            orgs.add(row(name(org), y, place == NONE ? null : name(place)));
            return true;
        });
        orgs.sort(Comparator.<List<Object>, String>comparing(o -> (String) o.get(0))
            .thenComparingLong(o -> (Long) o.get(1))
            .thenComparing(o -> (String) o.get(2), Comparator.nullsFirst(Comparator.naturalOrder())));
        return orgs;
    }

    /** IC2: friends' messages created at or before {@code maxDate}, newest first, 20 at most. */
    public List<List<Object>> ic2(long personId, long maxDate) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        return recentMessages(friends(start), maxDate, true);
    }

    /**
     * IC8: comments replying directly to the person's messages: replier's personId, first and last
     * name, commentCreationDate, commentId, commentContent; newest first, 20 at most.
     */
    public List<List<Object>> ic8(long personId) throws IOException {
        int p = r.nodeById(Label.PERSON, personId);
        if (p == NONE) {
            return List.of();
        }
        TopK<Message> top = new TopK<>(20, NEWEST_FIRST_ID_ASC);
        List<Integer> messages = new ArrayList<>();
        r.relationships(p, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> messages.add(m));
        for (int m : messages) {
            r.relationships(m, RelType.REPLY_OF, Direction.INCOMING, (c, rel) -> {
                top.offer(message(c, NONE));
                return true;
            });
        }
        List<List<Object>> rows = new ArrayList<>();
        for (Message c : top.sorted()) {
            PropertyValues a = r.properties(creator(c.node()), new PropertyValues(PERSON_NAME));
            rows.add(row(a.getLong(ID), a.getString(FIRST_NAME), a.getString(LAST_NAME), c.date(), c.id(),
                content(c.node())));
        }
        return rows;
    }

    /** IC9: messages of persons 1 or 2 hops away created strictly before {@code maxDate}, newest first, 20. */
    public List<List<Object>> ic9(long personId, long maxDate) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        return recentMessages(withinTwoHops(start), maxDate, false);
    }

    /** IC13: the length of the shortest knows path; 0 for the same person, -1 if there is none. */
    public List<List<Object>> ic13(long person1Id, long person2Id) throws IOException {
        int a = r.nodeById(Label.PERSON, person1Id);
        int b = r.nodeById(Label.PERSON, person2Id);
        long length;
        if (a == NONE || b == NONE) {
            length = -1;
        } else if (a == b) {
            length = 0;
        } else {
            length = shortestPath(a, b);
        }
        return List.of(row(length));
    }

    /**
     * Breadth-first from both ends, a whole level at a time, always the smaller frontier. Before a
     * level is expanded no node has been reached from both sides, so the path is longer than the two
     * depths together; the first meeting is therefore a shortest path.
     */
    private long shortestPath(int a, int b) throws IOException {
        Map<Integer, Integer> fromA = new HashMap<>(Map.of(a, 0));
        Map<Integer, Integer> fromB = new HashMap<>(Map.of(b, 0));
        List<Integer> frontierA = List.of(a);
        List<Integer> frontierB = List.of(b);
        int depthA = 0;
        int depthB = 0;
        while (!frontierA.isEmpty() && !frontierB.isEmpty()) {
            boolean expandA = frontierA.size() <= frontierB.size();
            Map<Integer, Integer> mine = expandA ? fromA : fromB;
            Map<Integer, Integer> other = expandA ? fromB : fromA;
            int depth = expandA ? depthA : depthB;
            List<Integer> next = new ArrayList<>();
            long[] found = {-1};
            for (int p : expandA ? frontierA : frontierB) {
                r.relationships(p, RelType.KNOWS, Direction.BOTH, (f, rel) -> {
                    Integer otherDepth = other.get(f);
                    if (otherDepth != null) {
                        found[0] = depth + 1L + otherDepth;
                        return false;
                    }
                    if (mine.putIfAbsent(f, depth + 1) == null) {
                        next.add(f);
                    }
                    return true;
                });
                if (found[0] >= 0) {
                    return found[0];
                }
            }
            if (expandA) {
                frontierA = next;
                depthA++;
            } else {
                frontierB = next;
                depthB++;
            }
        }
        return -1;
    }

    // ---- shared steps ------------------------------------------------------------------------------

    /** IC2 and IC9: the persons' messages up to {@code maxDate}, inclusive or not; 20 newest, id asc on ties. */
    private List<List<Object>> recentMessages(Iterable<Integer> persons, long maxDate, boolean inclusive)
        throws IOException {
        TopK<Message> top = new TopK<>(20, NEWEST_FIRST_ID_ASC);
        for (int person : persons) {
            r.relationships(person, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> {
                Message msg = message(m, person);
                if (inclusive ? msg.date() <= maxDate : msg.date() < maxDate) {
                    top.offer(msg);
                }
                return true;
            });
        }
        List<List<Object>> rows = new ArrayList<>();
        for (Message m : top.sorted()) {
            PropertyValues p = r.properties(m.person(), new PropertyValues(PERSON_NAME));
            rows.add(row(p.getLong(ID), p.getString(FIRST_NAME), p.getString(LAST_NAME), m.id(), content(m.node()),
                m.date()));
        }
        return rows;
    }

    /** Persons 1 or 2 knows-hops from {@code start}, each once, {@code start} excluded. */
    Set<Integer> withinTwoHops(int start) throws IOException {
        Set<Integer> persons = new LinkedHashSet<>(friends(start));
        for (int f : new ArrayList<>(persons)) {
            persons.addAll(friends(f));
        }
        persons.remove(start);
        return persons;
    }

    private Message message(int node, int person) throws IOException {
        PropertyValues v = r.properties(node, new PropertyValues(ID_AND_DATE));
        return new Message(node, v.getLong(ID), v.getLong(CREATION_DATE), person);
    }

    /** Direct friends, each once (knows is undirected). */
    Set<Integer> friends(int person) throws IOException {
        Set<Integer> friends = new LinkedHashSet<>();
        r.relationships(person, RelType.KNOWS, Direction.BOTH, (f, rel) -> friends.add(f) || true);
        return friends;
    }

    boolean knows(int a, int b) throws IOException {
        boolean[] found = {false};
        r.relationships(a, RelType.KNOWS, Direction.BOTH, (f, rel) -> {
            if (f == b) {
                found[0] = true;
                return false;
            }
            return true;
        });
        return found[0];
    }

    int creator(int message) throws IOException {
        int c = r.single(message, RelType.HAS_CREATOR, Direction.OUTGOING);
        if (c == NONE) {
            throw new IllegalStateException("message " + r.ldbcId(message) + " has no creator");
        }
        return c;
    }

    /** The message itself if it is a post, else the post at the top of its reply chain. */
    private int rootPost(int message) throws IOException {
        int m = message;
        for (long steps = 0; r.label(m) == Label.COMMENT; steps++) {
            int parent = r.single(m, RelType.REPLY_OF, Direction.OUTGOING);
            if (parent == NONE || steps > r.meta().nodes()) {
                throw new IllegalStateException("comment " + r.ldbcId(m) + " replies to nothing");
            }
            m = parent;
        }
        return m;
    }

    /** Content, or imageFile when content is empty. */
    String content(int message) throws IOException {
        PropertyValues v = r.properties(message, new PropertyValues(MESSAGE_CONTENT));
        String content = v.getString(CONTENT);
        return content.isEmpty() ? v.getString(IMAGE_FILE) : content;
    }

    String name(int node) throws IOException {
        return r.properties(node, PropertyValues.of(NAME)).getString(NAME);
    }

    private static List<Object> list(String joined) {
        return joined.isEmpty() ? List.of() : List.of((Object[]) joined.split(";"));
    }

    static List<Object> row(Object... columns) {
        return Arrays.asList(columns);
    }
}
