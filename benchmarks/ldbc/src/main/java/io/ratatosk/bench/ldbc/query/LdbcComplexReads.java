package io.ratatosk.bench.ldbc.query;

import static io.ratatosk.bench.ldbc.query.LdbcQueries.row;
import static io.ratatosk.bench.ldbc.store.GraphStore.NONE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.BIRTHDAY;
import static io.ratatosk.bench.ldbc.store.PropertyKey.CREATION_DATE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.FIRST_NAME;
import static io.ratatosk.bench.ldbc.store.PropertyKey.GENDER;
import static io.ratatosk.bench.ldbc.store.PropertyKey.ID;
import static io.ratatosk.bench.ldbc.store.PropertyKey.JOIN_DATE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.LAST_NAME;
import static io.ratatosk.bench.ldbc.store.PropertyKey.NAME;
import static io.ratatosk.bench.ldbc.store.PropertyKey.TITLE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.TYPE;
import static io.ratatosk.bench.ldbc.store.PropertyKey.WORK_FROM;

import io.ratatosk.bench.ldbc.store.Direction;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.PropertyKey;
import io.ratatosk.bench.ldbc.store.PropertyValues;
import io.ratatosk.bench.ldbc.store.RelType;
import io.ratatosk.bench.ldbc.store.StoreMeta;
import io.ratatosk.bench.ldbc.store.StoreReader;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * IC3-IC7, IC10-IC12 and IC14 on a graph store, exactly as the design brief's ldbc-queries.md
 * defines them (columns, order, tie-breaks, limits, half-open date windows). Places, tags and tag
 * classes named by a parameter are found by scanning their node range, which is static data, so
 * those reads go through the page cache like every other. Rows as in {@link LdbcQueries}; IC12's
 * tag names and IC14's paths are lists. Not thread-safe: one per {@link StoreReader}.
 */
final class LdbcComplexReads {
    private static final long DAY_MILLIS = 86_400_000L;
    private static final int PERSON_NAME = PropertyKey.mask(ID, FIRST_NAME, LAST_NAME);

    private final StoreReader r;
    private final LdbcQueries q;

    LdbcComplexReads(StoreReader reader, LdbcQueries queries) {
        this.r = reader;
        this.q = queries;
    }

    /** A person's id and names, read once for a row. */
    private record Person(int node, long id, String firstName, String lastName) {
    }

    private Person person(int node) throws IOException {
        PropertyValues v = r.properties(node, new PropertyValues(PERSON_NAME));
        return new Person(node, v.getLong(ID), v.getString(FIRST_NAME), v.getString(LAST_NAME));
    }

    /**
     * IC3: persons 1..2 hops away whose own country is neither X nor Y, with messages in both within
     * [startDate, startDate + durationDays): personId, first and last name, xCount, yCount, count.
     */
    List<List<Object>> ic3(long personId, long startDate, long durationDays, String countryX, String countryY)
        throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        int x = placeByName(countryX, "country");
        int y = placeByName(countryY, "country");
        if (start == NONE || x == NONE || y == NONE) {
            return List.of();
        }
        long end = startDate + durationDays * DAY_MILLIS;
        record Counted(int node, long id, long xCount, long yCount) {
        }
        List<Counted> found = new ArrayList<>();
        for (int p : q.withinTwoHops(start)) {
            int home = countryOf(p);
            if (home == x || home == y) {
                continue;
            }
            long[] counts = new long[2];
            r.relationships(p, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> {
                long date = r.longProperty(m, CREATION_DATE);
                if (date >= startDate && date < end) {
                    int place = r.single(m, RelType.IS_LOCATED_IN, Direction.OUTGOING);
                    if (place == x) {
                        counts[0]++;
                    }
                    if (place == y) {
                        counts[1]++;
                    }
                }
                return true;
            });
            if (counts[0] > 0 && counts[1] > 0) {
                found.add(new Counted(p, r.ldbcId(p), counts[0], counts[1]));
            }
        }
        found.sort(Comparator.comparingLong((Counted c) -> c.xCount() + c.yCount()).reversed()
            .thenComparingLong(Counted::id));
        List<List<Object>> rows = new ArrayList<>();
        for (Counted c : found.subList(0, Math.min(20, found.size()))) {
            Person p = person(c.node());
            rows.add(row(p.id(), p.firstName(), p.lastName(), c.xCount(), c.yCount(), c.xCount() + c.yCount()));
        }
        return rows;
    }

    /**
     * IC4: tags on friends' posts in [startDate, startDate + durationDays) that no friend's post
     * before startDate has: tagName, postCount; postCount desc, tagName asc, 10 at most.
     */
    List<List<Object>> ic4(long personId, long startDate, long durationDays) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        long end = startDate + durationDays * DAY_MILLIS;
        Map<Integer, long[]> inWindow = new HashMap<>();
        Set<Integer> before = new HashSet<>();
        for (int f : q.friends(start)) {
            r.relationships(f, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> {
                if (r.label(m) != Label.POST) {
                    return true;
                }
                long date = r.longProperty(m, CREATION_DATE);
                if (date < startDate) {
                    r.relationships(m, RelType.HAS_TAG, Direction.OUTGOING, (t, tr) -> before.add(t) || true);
                } else if (date < end) {
                    r.relationships(m, RelType.HAS_TAG, Direction.OUTGOING, (t, tr) -> {
                        inWindow.computeIfAbsent(t, k -> new long[1])[0]++;
                        return true;
                    });
                }
                return true;
            });
        }
        List<Object[]> tags = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : inWindow.entrySet()) {
            if (!before.contains(e.getKey())) {
                tags.add(new Object[] {q.name(e.getKey()), e.getValue()[0]});
            }
        }
        return countedNames(tags, 10);
    }

    /**
     * IC5: forums that persons 1..2 hops away joined after minDate, with the posts those persons
     * (only those who joined it after minDate) made in them: forumTitle, postCount; postCount desc,
     * forumId asc, 20 at most.
     */
    List<List<Object>> ic5(long personId, long minDate) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        Map<Integer, long[]> postCount = new HashMap<>();
        for (int p : q.withinTwoHops(start)) {
            Set<Integer> joined = new HashSet<>();
            r.relationships(p, RelType.HAS_MEMBER, Direction.INCOMING, (forum, rel) -> {
                if (r.relationshipLongProperty(rel, JOIN_DATE) > minDate) {
                    joined.add(forum);
                    postCount.computeIfAbsent(forum, k -> new long[1]);
                }
                return true;
            });
            if (joined.isEmpty()) {
                continue;
            }
            r.relationships(p, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> {
                if (r.label(m) == Label.POST) {
                    int forum = r.single(m, RelType.CONTAINER_OF, Direction.INCOMING);
                    if (joined.contains(forum)) {
                        postCount.get(forum)[0]++;
                    }
                }
                return true;
            });
        }
        record Forum(long id, long posts, int node) {
        }
        List<Forum> forums = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : postCount.entrySet()) {
            forums.add(new Forum(r.ldbcId(e.getKey()), e.getValue()[0], e.getKey()));
        }
        forums.sort(Comparator.comparingLong(Forum::posts).reversed().thenComparingLong(Forum::id));
        List<List<Object>> rows = new ArrayList<>();
        for (Forum f : forums.subList(0, Math.min(20, forums.size()))) {
            rows.add(row(r.properties(f.node(), PropertyValues.of(TITLE)).getString(TITLE), f.posts()));
        }
        return rows;
    }

    /**
     * IC6: the other tags on posts by persons 1..2 hops away that carry the tag named tagName:
     * tagName, postCount; postCount desc, tagName asc, 10 at most.
     */
    List<List<Object>> ic6(long personId, String tagName) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        int tag = nodeByName(Label.TAG, tagName);
        if (start == NONE || tag == NONE) {
            return List.of();
        }
        Map<Integer, long[]> counts = new HashMap<>();
        for (int p : q.withinTwoHops(start)) {
            r.relationships(p, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> {
                if (r.label(m) != Label.POST) {
                    return true;
                }
                List<Integer> tags = new ArrayList<>();
                r.relationships(m, RelType.HAS_TAG, Direction.OUTGOING, (t, tr) -> tags.add(t));
                if (tags.contains(tag)) {
                    for (int t : new HashSet<>(tags)) {
                        if (t != tag) {
                            counts.computeIfAbsent(t, k -> new long[1])[0]++;
                        }
                    }
                }
                return true;
            });
        }
        List<Object[]> tags = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : counts.entrySet()) {
            tags.add(new Object[] {q.name(e.getKey()), e.getValue()[0]});
        }
        return countedNames(tags, 10);
    }

    /**
     * IC7: each liker of the person's messages with their latest like (lowest messageId on a tie):
     * personId, first and last name, likeCreationDate, messageId, messageContent, minutesLatency,
     * isNew; likeCreationDate desc, personId asc, 20 at most.
     */
    List<List<Object>> ic7(long personId) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        record Like(int liker, long likeDate, int message, long messageId, long messageDate) {
        }
        Map<Integer, Like> latest = new HashMap<>();
        List<Integer> messages = new ArrayList<>();
        r.relationships(start, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> messages.add(m));
        for (int m : messages) {
            PropertyValues mv = r.properties(m, PropertyValues.of(ID, CREATION_DATE));
            long messageId = mv.getLong(ID);
            long messageDate = mv.getLong(CREATION_DATE);
            r.relationships(m, RelType.LIKES, Direction.INCOMING, (liker, rel) -> {
                long date = r.relationshipLongProperty(rel, CREATION_DATE);
                Like old = latest.get(liker);
                if (old == null || date > old.likeDate() || (date == old.likeDate() && messageId < old.messageId())) {
                    latest.put(liker, new Like(liker, date, m, messageId, messageDate));
                }
                return true;
            });
        }
        List<Object[]> likes = new ArrayList<>();
        for (Like l : latest.values()) {
            likes.add(new Object[] {l, r.ldbcId(l.liker())});
        }
        likes.sort(Comparator.comparingLong((Object[] o) -> ((Like) o[0]).likeDate()).reversed()
            .thenComparingLong(o -> (Long) o[1]));
        List<List<Object>> rows = new ArrayList<>();
        for (Object[] o : likes.subList(0, Math.min(20, likes.size()))) {
            Like l = (Like) o[0];
            Person p = person(l.liker());
            boolean isNew = l.liker() == start || !q.knows(l.liker(), start);
            rows.add(row(p.id(), p.firstName(), p.lastName(), l.likeDate(), l.messageId(), q.content(l.message()),
                Math.floorDiv(l.likeDate() - l.messageDate(), 60_000L), isNew));
        }
        return rows;
    }

    /**
     * IC10: persons exactly 2 hops away born from the 21st of {@code month} to the 21st of the next
     * month, scored by their posts on the start person's interests: personId, first and last name,
     * commonInterestScore, gender, cityName; score desc, personId asc, 10 at most.
     */
    List<List<Object>> ic10(long personId, long month) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        int nextMonth = (int) (month % 12 + 1);
        Set<Integer> interests = new HashSet<>();
        r.relationships(start, RelType.HAS_INTEREST, Direction.OUTGOING, (t, rel) -> interests.add(t) || true);
        Set<Integer> candidates = q.withinTwoHops(start);
        candidates.removeAll(q.friends(start));
        record Scored(int node, long id, long score) {
        }
        List<Scored> scored = new ArrayList<>();
        for (int c : candidates) {
            LocalDate birthday = LocalDate.ofEpochDay(Math.floorDiv(r.longProperty(c, BIRTHDAY), DAY_MILLIS));
            boolean inRange = (birthday.getMonthValue() == month && birthday.getDayOfMonth() >= 21)
                || (birthday.getMonthValue() == nextMonth && birthday.getDayOfMonth() < 22);
            if (!inRange) {
                continue;
            }
            long[] score = new long[1];
            r.relationships(c, RelType.HAS_CREATOR, Direction.INCOMING, (m, rel) -> {
                if (r.label(m) == Label.POST) {
                    boolean[] common = {false};
                    r.relationships(m, RelType.HAS_TAG, Direction.OUTGOING, (t, tr) -> {
                        common[0] = interests.contains(t);
                        return !common[0];
                    });
                    score[0] += common[0] ? 1 : -1;
                }
                return true;
            });
            scored.add(new Scored(c, r.ldbcId(c), score[0]));
        }
        scored.sort(Comparator.comparingLong(Scored::score).reversed().thenComparingLong(Scored::id));
        List<List<Object>> rows = new ArrayList<>();
        for (Scored s : scored.subList(0, Math.min(10, scored.size()))) {
            Person p = person(s.node());
            String gender = r.properties(s.node(), PropertyValues.of(GENDER)).getString(GENDER);
            int city = r.single(s.node(), RelType.IS_LOCATED_IN, Direction.OUTGOING);
            rows.add(row(p.id(), p.firstName(), p.lastName(), s.score(), gender, city == NONE ? null : q.name(city)));
        }
        return rows;
    }

    /**
     * IC11: jobs of persons 1..2 hops away at companies in the named country, started before
     * workFromYear: personId, first and last name, organisationName, organisationWorkFromYear;
     * workFrom asc, personId asc, organisationName desc, 10 at most.
     */
    List<List<Object>> ic11(long personId, String countryName, long workFromYear) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        int country = placeByName(countryName, "country");
        if (start == NONE || country == NONE) {
            return List.of();
        }
        List<List<Object>> jobs = new ArrayList<>();
        for (int p : q.withinTwoHops(start)) {
            r.relationships(p, RelType.WORK_AT, Direction.OUTGOING, (company, rel) -> {
                long from = r.relationshipLongProperty(rel, WORK_FROM);
                if (from < workFromYear && r.single(company, RelType.IS_LOCATED_IN, Direction.OUTGOING) == country) {
                    jobs.add(row(p, r.ldbcId(p), q.name(company), from));
                }
                return true;
            });
        }
        jobs.sort(Comparator.<List<Object>>comparingLong(j -> (Long) j.get(3))
            .thenComparingLong(j -> (Long) j.get(1))
            .thenComparing(Comparator.<List<Object>, String>comparing(j -> (String) j.get(2)).reversed()));
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> j : jobs.subList(0, Math.min(10, jobs.size()))) {
            Person p = person((Integer) j.get(0));
            rows.add(row(p.id(), p.firstName(), p.lastName(), j.get(2), j.get(3)));
        }
        return rows;
    }

    /**
     * IC12: friends' comments replying directly to posts tagged within the named tag class tree:
     * personId, first and last name, tagNames (sorted), replyCount; replyCount desc, personId asc,
     * 20 at most.
     */
    List<List<Object>> ic12(long personId, String tagClassName) throws IOException {
        int start = r.nodeById(Label.PERSON, personId);
        if (start == NONE) {
            return List.of();
        }
        Set<Integer> classes = new HashSet<>();
        ArrayDeque<Integer> todo = new ArrayDeque<>(nodesByName(Label.TAGCLASS, tagClassName));
        while (!todo.isEmpty()) {
            int c = todo.poll();
            if (classes.add(c)) {
                r.relationships(c, RelType.IS_SUBCLASS_OF, Direction.INCOMING, (sub, rel) -> todo.add(sub) || true);
            }
        }
        if (classes.isEmpty()) {
            return List.of();
        }
        Map<Integer, Boolean> tagQualifies = new HashMap<>();
        record Expert(int node, long id, Set<String> tags, long replies) {
        }
        List<Expert> experts = new ArrayList<>();
        for (int f : q.friends(start)) {
            Set<String> names = new TreeSet<>();
            long[] replies = new long[1];
            r.relationships(f, RelType.HAS_CREATOR, Direction.INCOMING, (c, rel) -> {
                if (r.label(c) != Label.COMMENT) {
                    return true;
                }
                int parent = r.single(c, RelType.REPLY_OF, Direction.OUTGOING);
                if (parent == NONE || r.label(parent) != Label.POST) {
                    return true;
                }
                List<Integer> tags = new ArrayList<>();
                r.relationships(parent, RelType.HAS_TAG, Direction.OUTGOING, (t, tr) -> tags.add(t));
                boolean any = false;
                for (int t : tags) {
                    Boolean ok = tagQualifies.get(t);
                    if (ok == null) {
                        ok = classes.contains(r.single(t, RelType.HAS_TYPE, Direction.OUTGOING));
                        tagQualifies.put(t, ok);
                    }
                    if (ok) {
                        any = true;
                        names.add(q.name(t));
                    }
                }
                if (any) {
                    replies[0]++;
                }
                return true;
            });
            if (replies[0] > 0) {
                experts.add(new Expert(f, r.ldbcId(f), names, replies[0]));
            }
        }
        experts.sort(Comparator.comparingLong(Expert::replies).reversed().thenComparingLong(Expert::id));
        List<List<Object>> rows = new ArrayList<>();
        for (Expert e : experts.subList(0, Math.min(20, experts.size()))) {
            Person p = person(e.node());
            rows.add(row(p.id(), p.firstName(), p.lastName(), new ArrayList<Object>(e.tags()), e.replies()));
        }
        return rows;
    }

    /**
     * IC14: every shortest knows path from person1 to person2 with its weight (1.0 per comment of one
     * replying to a post of the other, 0.5 per reply to a comment, both directions, summed over the
     * path's steps): personIdsInPath, pathWeight; weight desc, then the id lists ascending.
     */
    List<List<Object>> ic14(long person1Id, long person2Id) throws IOException {
        int a = r.nodeById(Label.PERSON, person1Id);
        int b = r.nodeById(Label.PERSON, person2Id);
        if (a == NONE || b == NONE) {
            return List.of();
        }
        if (a == b) {
            return List.of(row(List.of(person1Id), 0.0));
        }
        // Breadth-first from a, level by level, noting for each node its neighbours one level closer.
        Map<Integer, Integer> depth = new HashMap<>(Map.of(a, 0));
        Map<Integer, List<Integer>> closer = new HashMap<>();
        List<Integer> frontier = List.of(a);
        int level = 0;
        while (!frontier.isEmpty() && !depth.containsKey(b)) {
            int nextLevel = level + 1;
            List<Integer> next = new ArrayList<>();
            for (int p : frontier) {
                r.relationships(p, RelType.KNOWS, Direction.BOTH, (f, rel) -> {
                    Integer d = depth.get(f);
                    if (d == null) {
                        depth.put(f, nextLevel);
                        next.add(f);
                        d = nextLevel;
                    }
                    if (d == nextLevel) {
                        closer.computeIfAbsent(f, k -> new ArrayList<>()).add(p);
                    }
                    return true;
                });
            }
            frontier = next;
            level = nextLevel;
        }
        if (!depth.containsKey(b)) {
            return List.of();
        }
        List<List<Integer>> paths = new ArrayList<>();
        collectPaths(b, a, closer, new ArrayList<>(), paths);
        Map<Integer, Map<Integer, Double>> interactions = new HashMap<>();
        Map<Integer, Long> ids = new HashMap<>();
        record Path(List<Long> ids, double weight) {
        }
        List<Path> weighted = new ArrayList<>();
        for (List<Integer> path : paths) {
            double weight = 0;
            List<Long> pathIds = new ArrayList<>();
            for (int i = 0; i < path.size(); i++) {
                int n = path.get(i);
                Long id = ids.get(n);
                if (id == null) {
                    id = r.ldbcId(n);
                    ids.put(n, id);
                }
                pathIds.add(id);
                if (i > 0) {
                    int prev = path.get(i - 1);
                    weight += interactions(prev, interactions).getOrDefault(n, 0.0)
                        + interactions(n, interactions).getOrDefault(prev, 0.0);
                }
            }
            weighted.add(new Path(pathIds, weight));
        }
        weighted.sort(Comparator.comparingDouble(Path::weight).reversed().thenComparing(Path::ids, LdbcComplexReads::compareIds));
        List<List<Object>> rows = new ArrayList<>();
        for (Path p : weighted) {
            rows.add(row(new ArrayList<Object>(p.ids()), p.weight()));
        }
        return rows;
    }

    /** Every path from {@code node} back to {@code a} through {@code closer}, each added in order from a. */
    private static void collectPaths(int node, int a, Map<Integer, List<Integer>> closer, List<Integer> suffix,
                                     List<List<Integer>> out) {
        suffix.add(node);
        if (node == a) {
            List<Integer> path = new ArrayList<>(suffix);
            java.util.Collections.reverse(path);
            out.add(path);
        } else {
            for (int c : closer.get(node)) {
                collectPaths(c, a, closer, suffix, out);
            }
        }
        suffix.remove(suffix.size() - 1);
    }

    /** Per creator, the weight of {@code person}'s direct replies to their messages (post 1.0, comment 0.5). */
    private Map<Integer, Double> interactions(int person, Map<Integer, Map<Integer, Double>> known) throws IOException {
        Map<Integer, Double> weights = known.get(person);
        if (weights != null) {
            return weights;
        }
        Map<Integer, Double> computed = new HashMap<>();
        r.relationships(person, RelType.HAS_CREATOR, Direction.INCOMING, (c, rel) -> {
            if (r.label(c) == Label.COMMENT) {
                int parent = r.single(c, RelType.REPLY_OF, Direction.OUTGOING);
                if (parent != NONE) {
                    double w = r.label(parent) == Label.POST ? 1.0 : 0.5;
                    computed.merge(q.creator(parent), w, Double::sum);
                }
            }
            return true;
        });
        known.put(person, computed);
        return computed;
    }

    private static int compareIds(List<Long> x, List<Long> y) {
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = Long.compare(x.get(i), y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.size(), y.size());
    }

    // ---- shared steps ------------------------------------------------------------------------------

    /** [name, count] pairs sorted by count desc, name asc, the first {@code limit}. */
    private static List<List<Object>> countedNames(List<Object[]> pairs, int limit) {
        pairs.sort(Comparator.comparingLong((Object[] o) -> (Long) o[1]).reversed()
            .thenComparing(o -> (String) o[0]));
        List<List<Object>> rows = new ArrayList<>();
        for (Object[] o : pairs.subList(0, Math.min(limit, pairs.size()))) {
            rows.add(row(o[0], o[1]));
        }
        return rows;
    }

    /** The country (city, continent) of {@code person}: the place its city is part of. */
    private int countryOf(int person) throws IOException {
        int city = r.single(person, RelType.IS_LOCATED_IN, Direction.OUTGOING);
        return city == NONE ? NONE : r.single(city, RelType.IS_PART_OF, Direction.OUTGOING);
    }

    /** The place of {@code type} named {@code name}, or NONE: place names repeat across types. */
    private int placeByName(String name, String type) throws IOException {
        StoreMeta.NodeRange places = r.meta().range(Label.PLACE);
        PropertyValues v = PropertyValues.of(NAME, TYPE);
        for (long n = places.first(); n < places.first() + places.count(); n++) {
            r.properties((int) n, v);
            if (v.getString(NAME).equals(name) && v.getString(TYPE).equals(type)) {
                return (int) n;
            }
        }
        return NONE;
    }

    private int nodeByName(Label label, String name) throws IOException {
        List<Integer> nodes = nodesByName(label, name);
        return nodes.isEmpty() ? NONE : nodes.get(0);
    }

    /** Every node of {@code label} (a static one: tags, tag classes) whose name is {@code name}. */
    private List<Integer> nodesByName(Label label, String name) throws IOException {
        StoreMeta.NodeRange range = r.meta().range(label);
        PropertyValues v = PropertyValues.of(NAME);
        List<Integer> found = new ArrayList<>();
        for (long n = range.first(); n < range.first() + range.count(); n++) {
            if (r.properties((int) n, v).getString(NAME).equals(name)) {
                found.add((int) n);
            }
        }
        return found;
    }
}
