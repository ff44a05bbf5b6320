package io.ratatosk.bench.ldbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A plain in-memory implementation of the LDBC reads, written straight from the query table of
 * ldbc-queries.md and sharing nothing with the store: its own CSV parsing into maps, its own
 * queries by brute force. The tests hold the store's answers against it.
 */
final class ReferenceGraph {
    record Person(long id, String firstName, String lastName, String gender, long birthday, long creationDate,
                  String locationIP, String browserUsed, String languages, String emails) {
    }

    record Message(long id, boolean isPost, String imageFile, long creationDate, String content) {
        String text() {
            return content.isEmpty() ? imageFile : content;
        }
    }

    final Map<Long, Person> persons = new HashMap<>();
    final Map<Long, Message> messages = new HashMap<>();
    final Map<Long, Long> creatorOf = new HashMap<>();
    final Map<Long, List<Long>> messagesBy = new HashMap<>();
    final Map<Long, Long> parentOf = new HashMap<>();
    final Map<Long, List<Long>> repliesTo = new HashMap<>();
    final Map<Long, Long> forumOfPost = new HashMap<>();
    final Map<Long, String> forumTitle = new HashMap<>();
    final Map<Long, Long> moderatorOf = new HashMap<>();
    final Map<Long, Map<Long, Long>> knows = new HashMap<>();
    final Map<Long, Long> cityOf = new HashMap<>();
    final Map<Long, String> placeName = new HashMap<>();
    final Map<Long, String> organisationName = new HashMap<>();
    final Map<Long, Long> organisationPlace = new HashMap<>();
    final Map<Long, List<long[]>> studyAt = new HashMap<>();
    final Map<Long, List<long[]>> workAt = new HashMap<>();
    final Map<Long, String> placeType = new HashMap<>();
    final Map<Long, Long> placePartOf = new HashMap<>();
    final Map<Long, Long> messageCountry = new HashMap<>();
    final Map<Long, List<Long>> messageTags = new HashMap<>();
    final Map<Long, String> tagName = new HashMap<>();
    final Map<Long, Long> tagClassOf = new HashMap<>();
    final Map<Long, String> tagClassName = new HashMap<>();
    final Map<Long, Long> tagClassParent = new HashMap<>();
    final Map<Long, Set<Long>> interests = new HashMap<>();
    /** message -> liker -> like date. */
    final Map<Long, Map<Long, Long>> likes = new HashMap<>();
    /** forum -> member -> join date. */
    final Map<Long, Map<Long, Long>> members = new HashMap<>();
    final Map<Long, List<Long>> forumTags = new HashMap<>();

    /** {@code root} holds static/ and dynamic/ (or vanilla/static, vanilla/dynamic). */
    static ReferenceGraph load(Path root) throws IOException {
        Path csv = Files.isDirectory(root.resolve("vanilla")) ? root.resolve("vanilla") : root;
        ReferenceGraph g = new ReferenceGraph();
        for (String[] r : rows(csv, "dynamic", "person")) {
            g.persons.put(l(r[0]), new Person(l(r[0]), r[1], r[2], r[3], l(r[4]), l(r[5]), r[6], r[7], r[8], r[9]));
            g.knows.put(l(r[0]), new HashMap<>());
        }
        for (String[] r : rows(csv, "dynamic", "post")) {
            g.messages.put(l(r[0]), new Message(l(r[0]), true, r[1], l(r[2]), r[6]));
        }
        for (String[] r : rows(csv, "dynamic", "comment")) {
            g.messages.put(l(r[0]), new Message(l(r[0]), false, "", l(r[1]), r[4]));
        }
        for (String rel : List.of("post_hasCreator_person", "comment_hasCreator_person")) {
            for (String[] r : rows(csv, "dynamic", rel)) {
                g.creatorOf.put(l(r[0]), l(r[1]));
                g.messagesBy.computeIfAbsent(l(r[1]), k -> new ArrayList<>()).add(l(r[0]));
            }
        }
        for (String rel : List.of("comment_replyOf_post", "comment_replyOf_comment")) {
            for (String[] r : rows(csv, "dynamic", rel)) {
                g.parentOf.put(l(r[0]), l(r[1]));
                g.repliesTo.computeIfAbsent(l(r[1]), k -> new ArrayList<>()).add(l(r[0]));
            }
        }
        for (String[] r : rows(csv, "dynamic", "forum")) {
            g.forumTitle.put(l(r[0]), r[1]);
        }
        for (String[] r : rows(csv, "dynamic", "forum_containerOf_post")) {
            g.forumOfPost.put(l(r[1]), l(r[0]));
        }
        for (String[] r : rows(csv, "dynamic", "forum_hasModerator_person")) {
            g.moderatorOf.put(l(r[0]), l(r[1]));
        }
        for (String[] r : rows(csv, "dynamic", "person_knows_person")) {
            g.knows.get(l(r[0])).put(l(r[1]), l(r[2]));
            g.knows.get(l(r[1])).put(l(r[0]), l(r[2]));
        }
        for (String[] r : rows(csv, "dynamic", "person_isLocatedIn_place")) {
            g.cityOf.put(l(r[0]), l(r[1]));
        }
        for (String[] r : rows(csv, "static", "place")) {
            g.placeName.put(l(r[0]), r[1]);
        }
        for (String[] r : rows(csv, "static", "organisation")) {
            g.organisationName.put(l(r[0]), r[2]);
        }
        for (String[] r : rows(csv, "static", "organisation_isLocatedIn_place")) {
            g.organisationPlace.put(l(r[0]), l(r[1]));
        }
        for (String[] r : rows(csv, "dynamic", "person_studyAt_organisation")) {
            g.studyAt.computeIfAbsent(l(r[0]), k -> new ArrayList<>()).add(new long[] {l(r[1]), l(r[2])});
        }
        for (String[] r : rows(csv, "dynamic", "person_workAt_organisation")) {
            g.workAt.computeIfAbsent(l(r[0]), k -> new ArrayList<>()).add(new long[] {l(r[1]), l(r[2])});
        }
        for (String[] r : rows(csv, "static", "place")) {
            g.placeType.put(l(r[0]), r[3]);
        }
        for (String[] r : rows(csv, "static", "place_isPartOf_place")) {
            g.placePartOf.put(l(r[0]), l(r[1]));
        }
        for (String rel : List.of("post_isLocatedIn_place", "comment_isLocatedIn_place")) {
            for (String[] r : rows(csv, "dynamic", rel)) {
                g.messageCountry.put(l(r[0]), l(r[1]));
            }
        }
        for (String rel : List.of("post_hasTag_tag", "comment_hasTag_tag")) {
            for (String[] r : rows(csv, "dynamic", rel)) {
                g.messageTags.computeIfAbsent(l(r[0]), k -> new ArrayList<>()).add(l(r[1]));
            }
        }
        for (String[] r : rows(csv, "static", "tag")) {
            g.tagName.put(l(r[0]), r[1]);
        }
        for (String[] r : rows(csv, "static", "tag_hasType_tagclass")) {
            g.tagClassOf.put(l(r[0]), l(r[1]));
        }
        for (String[] r : rows(csv, "static", "tagclass")) {
            g.tagClassName.put(l(r[0]), r[1]);
        }
        for (String[] r : rows(csv, "static", "tagclass_isSubclassOf_tagclass")) {
            g.tagClassParent.put(l(r[0]), l(r[1]));
        }
        for (String[] r : rows(csv, "dynamic", "person_hasInterest_tag")) {
            g.interests.computeIfAbsent(l(r[0]), k -> new java.util.HashSet<>()).add(l(r[1]));
        }
        for (String rel : List.of("person_likes_post", "person_likes_comment")) {
            for (String[] r : rows(csv, "dynamic", rel)) {
                g.likes.computeIfAbsent(l(r[1]), k -> new HashMap<>()).put(l(r[0]), l(r[2]));
            }
        }
        for (String[] r : rows(csv, "dynamic", "forum_hasMember_person")) {
            g.members.computeIfAbsent(l(r[0]), k -> new HashMap<>()).put(l(r[1]), l(r[2]));
        }
        for (String[] r : rows(csv, "dynamic", "forum_hasTag_tag")) {
            g.forumTags.computeIfAbsent(l(r[0]), k -> new ArrayList<>()).add(l(r[1]));
        }
        return g;
    }

    private static long l(String s) {
        return Long.parseLong(s);
    }

    private static List<String[]> rows(Path csv, String folder, String name) throws IOException {
        List<String[]> rows = new ArrayList<>();
        List<Path> parts;
        try (Stream<Path> s = Files.list(csv.resolve(folder))) {
            parts = s.filter(p -> p.getFileName().toString().matches(name + "_\\d+_\\d+\\.csv")).sorted().toList();
        }
        if (parts.isEmpty()) {
            throw new IOException("no " + name + " in " + csv.resolve(folder));
        }
        for (Path p : parts) {
            List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                if (!line.isEmpty()) {
                    rows.add(line.split("\\|", -1));
                }
            }
        }
        return rows;
    }

    // ---- queries -----------------------------------------------------------------------------------

    List<List<Object>> is1(long personId) {
        Person p = persons.get(personId);
        if (p == null) {
            return List.of();
        }
        return List.of(Arrays.asList(p.firstName(), p.lastName(), p.birthday(), p.locationIP(), p.browserUsed(),
            cityOf.get(personId), p.gender(), p.creationDate()));
    }

    List<List<Object>> is2(long personId) {
        List<Message> mine = new ArrayList<>();
        for (long m : messagesBy.getOrDefault(personId, List.of())) {
            mine.add(messages.get(m));
        }
        mine.sort(Comparator.comparingLong(Message::creationDate).reversed()
            .thenComparing(Comparator.comparingLong(Message::id).reversed()));
        List<List<Object>> rows = new ArrayList<>();
        for (Message m : mine.subList(0, Math.min(10, mine.size()))) {
            long root = m.id();
            while (!messages.get(root).isPost()) {
                root = parentOf.get(root);
            }
            Person author = persons.get(creatorOf.get(root));
            rows.add(List.of(m.id(), m.text(), m.creationDate(), root, author.id(), author.firstName(),
                author.lastName()));
        }
        return rows;
    }

    List<List<Object>> is3(long personId) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        List<List<Object>> rows = new ArrayList<>();
        knows.get(personId).forEach((friend, since) -> {
            Person f = persons.get(friend);
            rows.add(List.of(f.id(), f.firstName(), f.lastName(), since));
        });
        rows.sort((a, b) -> {
            int c = Long.compare((Long) b.get(3), (Long) a.get(3));
            return c != 0 ? c : Long.compare((Long) a.get(0), (Long) b.get(0));
        });
        return rows;
    }

    List<List<Object>> is4(long messageId) {
        Message m = messages.get(messageId);
        return m == null ? List.of() : List.of(List.of(m.creationDate(), m.text()));
    }

    List<List<Object>> is5(long messageId) {
        if (!messages.containsKey(messageId)) {
            return List.of();
        }
        Person p = persons.get(creatorOf.get(messageId));
        return List.of(List.of(p.id(), p.firstName(), p.lastName()));
    }

    List<List<Object>> is6(long messageId) {
        if (!messages.containsKey(messageId)) {
            return List.of();
        }
        long root = messageId;
        while (!messages.get(root).isPost()) {
            root = parentOf.get(root);
        }
        Long forum = forumOfPost.get(root);
        if (forum == null) {
            return List.of();
        }
        Person mod = persons.get(moderatorOf.get(forum));
        return List.of(List.of(forum, forumTitle.get(forum), mod.id(), mod.firstName(), mod.lastName()));
    }

    List<List<Object>> is7(long messageId) {
        if (!messages.containsKey(messageId)) {
            return List.of();
        }
        long author = creatorOf.get(messageId);
        List<List<Object>> rows = new ArrayList<>();
        for (long c : repliesTo.getOrDefault(messageId, List.of())) {
            Message comment = messages.get(c);
            Person replier = persons.get(creatorOf.get(c));
            boolean knowsAuthor = replier.id() != author && knows.get(replier.id()).containsKey(author);
            rows.add(List.of(c, comment.content(), comment.creationDate(), replier.id(), replier.firstName(),
                replier.lastName(), knowsAuthor));
        }
        rows.sort((a, b) -> {
            int c = Long.compare((Long) b.get(2), (Long) a.get(2));
            if (c == 0) {
                c = Long.compare((Long) a.get(3), (Long) b.get(3));
            }
            return c != 0 ? c : Long.compare((Long) a.get(0), (Long) b.get(0));
        });
        return rows;
    }

    /** Hop distances from {@code start} up to {@code maxHops}, the start excluded. */
    private Map<Long, Integer> within(long start, int maxHops) {
        Map<Long, Integer> distance = new HashMap<>();
        distance.put(start, 0);
        ArrayDeque<Long> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            long p = queue.poll();
            int d = distance.get(p);
            if (d == maxHops) {
                continue;
            }
            for (long f : knows.get(p).keySet()) {
                if (!distance.containsKey(f)) {
                    distance.put(f, d + 1);
                    queue.add(f);
                }
            }
        }
        distance.remove(start);
        return distance;
    }

    List<List<Object>> ic1(long personId, String firstName) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        List<Object[]> found = new ArrayList<>();
        within(personId, 3).forEach((id, d) -> {
            Person p = persons.get(id);
            if (p.firstName().equals(firstName)) {
                found.add(new Object[] {p, d});
            }
        });
        found.sort((a, b) -> {
            Person pa = (Person) a[0];
            Person pb = (Person) b[0];
            int c = Integer.compare((Integer) a[1], (Integer) b[1]);
            if (c == 0) {
                c = pa.lastName().compareTo(pb.lastName());
            }
            return c != 0 ? c : Long.compare(pa.id(), pb.id());
        });
        List<List<Object>> rows = new ArrayList<>();
        for (Object[] f : found.subList(0, Math.min(20, found.size()))) {
            Person p = (Person) f[0];
            List<Object> universities = new ArrayList<>();
            for (long[] s : studyAt.getOrDefault(p.id(), List.of())) {
                universities.add(List.of(organisationName.get(s[0]), s[1],
                    placeName.get(organisationPlace.get(s[0]))));
            }
            List<Object> companies = new ArrayList<>();
            for (long[] w : workAt.getOrDefault(p.id(), List.of())) {
                companies.add(List.of(organisationName.get(w[0]), w[1], placeName.get(organisationPlace.get(w[0]))));
            }
            rows.add(Arrays.asList(p.id(), p.lastName(), (long) (Integer) f[1], p.birthday(), p.creationDate(),
                p.gender(), p.browserUsed(), p.locationIP(), split(p.emails()), split(p.languages()),
                placeName.get(cityOf.get(p.id())), universities, companies));
        }
        return rows;
    }

    private static List<Object> split(String s) {
        return s.isEmpty() ? List.of() : List.of((Object[]) s.split(";"));
    }

    List<List<Object>> ic2(long personId, long maxDate) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        return newestMessages(knows.get(personId).keySet(), m -> m.creationDate() <= maxDate);
    }

    List<List<Object>> ic9(long personId, long maxDate) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        return newestMessages(within(personId, 2).keySet(), m -> m.creationDate() < maxDate);
    }

    private List<List<Object>> newestMessages(Set<Long> authors, java.util.function.Predicate<Message> keep) {
        List<Message> all = new ArrayList<>();
        for (long a : authors) {
            for (long m : messagesBy.getOrDefault(a, List.of())) {
                if (keep.test(messages.get(m))) {
                    all.add(messages.get(m));
                }
            }
        }
        all.sort(Comparator.comparingLong(Message::creationDate).reversed().thenComparingLong(Message::id));
        List<List<Object>> rows = new ArrayList<>();
        for (Message m : all.subList(0, Math.min(20, all.size()))) {
            Person p = persons.get(creatorOf.get(m.id()));
            rows.add(List.of(p.id(), p.firstName(), p.lastName(), m.id(), m.text(), m.creationDate()));
        }
        return rows;
    }

    List<List<Object>> ic8(long personId) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        List<Message> replies = new ArrayList<>();
        for (long m : messagesBy.getOrDefault(personId, List.of())) {
            for (long c : repliesTo.getOrDefault(m, List.of())) {
                replies.add(messages.get(c));
            }
        }
        replies.sort(Comparator.comparingLong(Message::creationDate).reversed().thenComparingLong(Message::id));
        List<List<Object>> rows = new ArrayList<>();
        for (Message c : replies.subList(0, Math.min(20, replies.size()))) {
            Person p = persons.get(creatorOf.get(c.id()));
            rows.add(List.of(p.id(), p.firstName(), p.lastName(), c.creationDate(), c.id(), c.content()));
        }
        return rows;
    }

    List<List<Object>> ic13(long person1Id, long person2Id) {
        if (!persons.containsKey(person1Id) || !persons.containsKey(person2Id)) {
            return List.of(List.of(-1L));
        }
        Integer d = person1Id == person2Id ? Integer.valueOf(0) : within(person1Id, Integer.MAX_VALUE).get(person2Id);
        return List.of(List.of(d == null ? -1L : (long) d));
    }

    /** Persons sorted by id, for tests that sweep them. */
    List<Long> personIds() {
        return new ArrayList<>(new TreeMap<>(persons).keySet());
    }

    List<Long> messageIds() {
        return new ArrayList<>(new TreeMap<>(messages).keySet());
    }

    /** The distinct first names, most common first. */
    List<String> firstNamesByFrequency() {
        Map<String, Integer> counts = new HashMap<>();
        persons.values().forEach(p -> counts.merge(p.firstName(), 1, Integer::sum));
        List<String> names = new ArrayList<>(counts.keySet());
        names.sort(Comparator.<String>comparingInt(counts::get).reversed().thenComparing(Comparator.naturalOrder()));
        return names;
    }
    /** The reference's answer to {@code q}. */
    List<List<Object>> run(io.ratatosk.bench.ldbc.query.Query q) {
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
            case IC3 -> ic3(q.longParam("personId"), q.longParam("startDate"), q.longParam("durationDays"),
                q.stringParam("countryXName"), q.stringParam("countryYName"));
            case IC4 -> ic4(q.longParam("personId"), q.longParam("startDate"), q.longParam("durationDays"));
            case IC5 -> ic5(q.longParam("personId"), q.longParam("minDate"));
            case IC6 -> ic6(q.longParam("personId"), q.stringParam("tagName"));
            case IC7 -> ic7(q.longParam("personId"));
            case IC8 -> ic8(q.longParam("personId"));
            case IC9 -> ic9(q.longParam("personId"), q.longParam("maxDate"));
            case IC10 -> ic10(q.longParam("personId"), q.longParam("month"));
            case IC11 -> ic11(q.longParam("personId"), q.stringParam("countryName"), q.longParam("workFromYear"));
            case IC12 -> ic12(q.longParam("personId"), q.stringParam("tagClassName"));
            case IC13 -> ic13(q.longParam("person1Id"), q.longParam("person2Id"));
            case IC14 -> ic14(q.longParam("person1Id"), q.longParam("person2Id"));
        };
    }

    // ---- IC3-IC7, IC10-IC12, IC14 ------------------------------------------------------------------

    private static final long DAY = 86_400_000L;

    private Long countryNamed(String name) {
        for (Map.Entry<Long, String> e : placeName.entrySet()) {
            if (e.getValue().equals(name) && placeType.get(e.getKey()).equals("country")) {
                return e.getKey();
            }
        }
        return null;
    }

    private static List<List<Object>> limit(List<List<Object>> rows, int n) {
        return new ArrayList<>(rows.subList(0, Math.min(n, rows.size())));
    }

    private static int desc(long a, long b) {
        return Long.compare(b, a);
    }

    List<List<Object>> ic3(long personId, long startDate, long durationDays, String xName, String yName) {
        Long x = countryNamed(xName);
        Long y = countryNamed(yName);
        if (!persons.containsKey(personId) || x == null || y == null) {
            return List.of();
        }
        long end = startDate + durationDays * DAY;
        List<List<Object>> rows = new ArrayList<>();
        for (long p : within(personId, 2).keySet()) {
            long home = placePartOf.get(cityOf.get(p));
            if (home == x || home == y) {
                continue;
            }
            long xc = 0;
            long yc = 0;
            for (long m : messagesBy.getOrDefault(p, List.of())) {
                long d = messages.get(m).creationDate();
                if (d >= startDate && d < end) {
                    xc += messageCountry.get(m) == x.longValue() ? 1 : 0;
                    yc += messageCountry.get(m) == y.longValue() ? 1 : 0;
                }
            }
            if (xc > 0 && yc > 0) {
                Person pp = persons.get(p);
                rows.add(List.of(p, pp.firstName(), pp.lastName(), xc, yc, xc + yc));
            }
        }
        rows.sort((a, b) -> {
            int c = desc((Long) a.get(5), (Long) b.get(5));
            return c != 0 ? c : Long.compare((Long) a.get(0), (Long) b.get(0));
        });
        return limit(rows, 20);
    }

    private static List<List<Object>> namesByCount(Map<String, Long> counts, int n) {
        List<List<Object>> rows = new ArrayList<>();
        counts.forEach((name, c) -> rows.add(List.of(name, c)));
        rows.sort((a, b) -> {
            int c = desc((Long) a.get(1), (Long) b.get(1));
            return c != 0 ? c : ((String) a.get(0)).compareTo((String) b.get(0));
        });
        return limit(rows, n);
    }

    List<List<Object>> ic4(long personId, long startDate, long durationDays) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        long end = startDate + durationDays * DAY;
        Set<Long> old = new java.util.HashSet<>();
        Map<Long, Long> inWindow = new HashMap<>();
        for (long f : knows.get(personId).keySet()) {
            for (long m : messagesBy.getOrDefault(f, List.of())) {
                Message msg = messages.get(m);
                if (!msg.isPost()) {
                    continue;
                }
                for (long t : messageTags.getOrDefault(m, List.of())) {
                    if (msg.creationDate() < startDate) {
                        old.add(t);
                    } else if (msg.creationDate() < end) {
                        inWindow.merge(t, 1L, Long::sum);
                    }
                }
            }
        }
        Map<String, Long> counts = new HashMap<>();
        inWindow.forEach((t, c) -> {
            if (!old.contains(t)) {
                counts.put(tagName.get(t), c);
            }
        });
        return namesByCount(counts, 10);
    }

    List<List<Object>> ic5(long personId, long minDate) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        Set<Long> others = within(personId, 2).keySet();
        List<long[]> forums = new ArrayList<>();
        Map<Long, Set<Long>> newMembersOf = new HashMap<>();
        for (Map.Entry<Long, Map<Long, Long>> f : members.entrySet()) {
            Set<Long> newMembers = new java.util.HashSet<>();
            f.getValue().forEach((p, join) -> {
                if (others.contains(p) && join > minDate) {
                    newMembers.add(p);
                }
            });
            if (newMembers.isEmpty()) {
                continue;
            }
            forums.add(new long[] {f.getKey(), 0, 0});
            newMembersOf.put(f.getKey(), newMembers);
        }
        Map<Long, long[]> byId = new HashMap<>();
        forums.forEach(f -> byId.put(f[0], f));
        forumOfPost.forEach((post, forum) -> {
            if (byId.containsKey(forum) && newMembersOf.get(forum).contains(creatorOf.get(post))) {
                byId.get(forum)[1]++;
            }
        });
        forums.sort((a, b) -> {
            int c = desc(a[1], b[1]);
            return c != 0 ? c : Long.compare(a[0], b[0]);
        });
        List<List<Object>> rows = new ArrayList<>();
        for (long[] f : forums.subList(0, Math.min(20, forums.size()))) {
            rows.add(List.of(forumTitle.get(f[0]), f[1]));
        }
        return rows;
    }

    List<List<Object>> ic6(long personId, String tag) {
        Long tagId = null;
        for (Map.Entry<Long, String> e : tagName.entrySet()) {
            if (e.getValue().equals(tag)) {
                tagId = e.getKey();
            }
        }
        if (!persons.containsKey(personId) || tagId == null) {
            return List.of();
        }
        Map<String, Long> counts = new HashMap<>();
        for (long p : within(personId, 2).keySet()) {
            for (long m : messagesBy.getOrDefault(p, List.of())) {
                List<Long> tags = messageTags.getOrDefault(m, List.of());
                if (messages.get(m).isPost() && tags.contains(tagId)) {
                    for (long t : new java.util.HashSet<>(tags)) {
                        if (t != tagId) {
                            counts.merge(tagName.get(t), 1L, Long::sum);
                        }
                    }
                }
            }
        }
        return namesByCount(counts, 10);
    }

    List<List<Object>> ic7(long personId) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        Map<Long, long[]> best = new HashMap<>(); // liker -> [date, messageId]
        for (long m : messagesBy.getOrDefault(personId, List.of())) {
            likes.getOrDefault(m, Map.of()).forEach((liker, date) -> {
                long[] b = best.get(liker);
                if (b == null || date > b[0] || (date == b[0] && m < b[1])) {
                    best.put(liker, new long[] {date, m});
                }
            });
        }
        List<List<Object>> rows = new ArrayList<>();
        best.forEach((liker, b) -> {
            Person p = persons.get(liker);
            Message m = messages.get(b[1]);
            long latency = Math.floorDiv(b[0] - m.creationDate(), 60_000L);
            boolean isNew = !knows.get(personId).containsKey(liker);
            rows.add(List.of(liker, p.firstName(), p.lastName(), b[0], b[1], m.text(), latency, isNew));
        });
        rows.sort((a, b) -> {
            int c = desc((Long) a.get(3), (Long) b.get(3));
            return c != 0 ? c : Long.compare((Long) a.get(0), (Long) b.get(0));
        });
        return limit(rows, 20);
    }

    List<List<Object>> ic10(long personId, long month) {
        if (!persons.containsKey(personId)) {
            return List.of();
        }
        long next = month % 12 + 1;
        Set<Long> mine = interests.getOrDefault(personId, Set.of());
        List<List<Object>> rows = new ArrayList<>();
        within(personId, 2).forEach((p, d) -> {
            if (d != 2) {
                return;
            }
            Person pp = persons.get(p);
            java.time.ZonedDateTime b = java.time.Instant.ofEpochMilli(pp.birthday()).atZone(java.time.ZoneOffset.UTC);
            if (!((b.getMonthValue() == month && b.getDayOfMonth() >= 21)
                || (b.getMonthValue() == next && b.getDayOfMonth() < 22))) {
                return;
            }
            long common = 0;
            long uncommon = 0;
            for (long m : messagesBy.getOrDefault(p, List.of())) {
                if (!messages.get(m).isPost()) {
                    continue;
                }
                boolean hit = messageTags.getOrDefault(m, List.of()).stream().anyMatch(mine::contains);
                if (hit) {
                    common++;
                } else {
                    uncommon++;
                }
            }
            rows.add(Arrays.asList(p, pp.firstName(), pp.lastName(), common - uncommon, pp.gender(),
                placeName.get(cityOf.get(p))));
        });
        rows.sort((a, b) -> {
            int c = desc((Long) a.get(3), (Long) b.get(3));
            return c != 0 ? c : Long.compare((Long) a.get(0), (Long) b.get(0));
        });
        return limit(rows, 10);
    }

    List<List<Object>> ic11(long personId, String countryName, long workFromYear) {
        Long country = countryNamed(countryName);
        if (!persons.containsKey(personId) || country == null) {
            return List.of();
        }
        List<List<Object>> rows = new ArrayList<>();
        for (long p : within(personId, 2).keySet()) {
            for (long[] w : workAt.getOrDefault(p, List.of())) {
                if (w[1] < workFromYear && organisationPlace.get(w[0]).equals(country)) {
                    Person pp = persons.get(p);
                    rows.add(List.of(p, pp.firstName(), pp.lastName(), organisationName.get(w[0]), w[1]));
                }
            }
        }
        rows.sort((a, b) -> {
            int c = Long.compare((Long) a.get(4), (Long) b.get(4));
            if (c == 0) {
                c = Long.compare((Long) a.get(0), (Long) b.get(0));
            }
            return c != 0 ? c : ((String) b.get(3)).compareTo((String) a.get(3));
        });
        return limit(rows, 10);
    }

    /** True if {@code tagClass} is the class named {@code name} or one of its subclasses, transitively. */
    private boolean inClassTree(Long tagClass, String name) {
        for (Long c = tagClass; c != null; c = tagClassParent.get(c)) {
            if (tagClassName.get(c).equals(name)) {
                return true;
            }
        }
        return false;
    }

    List<List<Object>> ic12(long personId, String className) {
        if (!persons.containsKey(personId) || !tagClassName.containsValue(className)) {
            return List.of();
        }
        List<List<Object>> rows = new ArrayList<>();
        for (long f : knows.get(personId).keySet()) {
            long count = 0;
            Set<String> names = new java.util.TreeSet<>();
            for (long c : messagesBy.getOrDefault(f, List.of())) {
                if (messages.get(c).isPost() || !messages.get(parentOf.get(c)).isPost()) {
                    continue;
                }
                boolean any = false;
                for (long t : messageTags.getOrDefault(parentOf.get(c), List.of())) {
                    if (inClassTree(tagClassOf.get(t), className)) {
                        any = true;
                        names.add(tagName.get(t));
                    }
                }
                count += any ? 1 : 0;
            }
            if (count > 0) {
                Person p = persons.get(f);
                rows.add(List.of(f, p.firstName(), p.lastName(), new ArrayList<Object>(names), count));
            }
        }
        rows.sort((a, b) -> {
            int c = desc((Long) a.get(4), (Long) b.get(4));
            return c != 0 ? c : Long.compare((Long) a.get(0), (Long) b.get(0));
        });
        return limit(rows, 20);
    }

    /** Weight of a's direct replies to b's messages: 1.0 to a post, 0.5 to a comment. */
    private double replyWeight(long a, long b) {
        double w = 0;
        for (long c : messagesBy.getOrDefault(a, List.of())) {
            Long parent = parentOf.get(c);
            if (!messages.get(c).isPost() && creatorOf.get(parent) == b) {
                w += messages.get(parent).isPost() ? 1.0 : 0.5;
            }
        }
        return w;
    }

    List<List<Object>> ic14(long a, long b) {
        if (!persons.containsKey(a) || !persons.containsKey(b)) {
            return List.of();
        }
        if (a == b) {
            return List.of(List.of(List.of(a), 0.0));
        }
        Map<Long, Integer> fromA = within(a, Integer.MAX_VALUE);
        if (!fromA.containsKey(b)) {
            return List.of();
        }
        int length = fromA.get(b);
        Map<Long, Integer> fromB = within(b, Integer.MAX_VALUE);
        fromA.put(a, 0);
        fromB.put(b, 0);
        // Extend paths from a one hop at a time through nodes that still lie on a shortest path to b.
        List<List<Long>> paths = new ArrayList<>(List.of(List.of(a)));
        for (int step = 1; step <= length; step++) {
            List<List<Long>> longer = new ArrayList<>();
            for (List<Long> path : paths) {
                for (long f : knows.get(path.get(path.size() - 1)).keySet()) {
                    if (fromA.getOrDefault(f, -1) == step && fromB.getOrDefault(f, -1) == length - step) {
                        List<Long> p = new ArrayList<>(path);
                        p.add(f);
                        longer.add(p);
                    }
                }
            }
            paths = longer;
        }
        List<List<Object>> rows = new ArrayList<>();
        for (List<Long> path : paths) {
            double w = 0;
            for (int i = 1; i < path.size(); i++) {
                w += replyWeight(path.get(i - 1), path.get(i)) + replyWeight(path.get(i), path.get(i - 1));
            }
            rows.add(List.of(new ArrayList<Object>(path), w));
        }
        rows.sort((x, y) -> {
            int c = Double.compare((Double) y.get(1), (Double) x.get(1));
            if (c != 0) {
                return c;
            }
            List<?> px = (List<?>) x.get(0);
            List<?> py = (List<?>) y.get(0);
            for (int i = 0; i < px.size(); i++) {
                c = Long.compare((Long) px.get(i), (Long) py.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        return rows;
    }
    // ---- updates -----------------------------------------------------------------------------------

    /**
     * Applies one update as the dump writes it ({@code {"update": "IU6", "params": {...}}}) to the maps,
     * as if its rows had been in the CSV files; fails on an update that refers to something missing or
     * inserts something that exists already.
     */
    void apply(String type, com.fasterxml.jackson.databind.JsonNode p) {
        switch (type) {
            case "IU1" -> {
                long id = p.get("personId").asLong();
                require(!persons.containsKey(id), "person " + id + " exists");
                require(placeName.containsKey(p.get("cityId").asLong()), "no city " + p.get("cityId"));
                persons.put(id, new Person(id, p.get("personFirstName").asText(), p.get("personLastName").asText(),
                    p.get("gender").asText(), p.get("birthday").asLong(), p.get("creationDate").asLong(),
                    p.get("locationIP").asText(), p.get("browserUsed").asText(), joined(p.get("languages")),
                    joined(p.get("emails"))));
                knows.put(id, new HashMap<>());
                cityOf.put(id, p.get("cityId").asLong());
                for (com.fasterxml.jackson.databind.JsonNode t : p.get("tagIds")) {
                    require(tagName.containsKey(t.asLong()), "no tag " + t);
                    interests.computeIfAbsent(id, k -> new java.util.HashSet<>()).add(t.asLong());
                }
                for (com.fasterxml.jackson.databind.JsonNode s : p.get("studyAt")) {
                    require(organisationName.containsKey(s.get(0).asLong()), "no organisation " + s);
                    studyAt.computeIfAbsent(id, k -> new ArrayList<>()).add(new long[] {s.get(0).asLong(), s.get(1).asLong()});
                }
                for (com.fasterxml.jackson.databind.JsonNode w : p.get("workAt")) {
                    require(organisationName.containsKey(w.get(0).asLong()), "no organisation " + w);
                    workAt.computeIfAbsent(id, k -> new ArrayList<>()).add(new long[] {w.get(0).asLong(), w.get(1).asLong()});
                }
            }
            case "IU2", "IU3" -> {
                long person = p.get("personId").asLong();
                long message = p.get(type.equals("IU2") ? "postId" : "commentId").asLong();
                require(persons.containsKey(person) && messages.containsKey(message)
                    && messages.get(message).isPost() == type.equals("IU2"), "like of a missing person or message");
                Map<Long, Long> likers = likes.computeIfAbsent(message, k -> new HashMap<>());
                require(!likers.containsKey(person), "like exists");
                likers.put(person, p.get("creationDate").asLong());
            }
            case "IU4" -> {
                long forum = p.get("forumId").asLong();
                require(!forumTitle.containsKey(forum), "forum " + forum + " exists");
                require(persons.containsKey(p.get("moderatorPersonId").asLong()), "no moderator");
                forumTitle.put(forum, p.get("forumTitle").asText());
                moderatorOf.put(forum, p.get("moderatorPersonId").asLong());
                for (com.fasterxml.jackson.databind.JsonNode t : p.get("tagIds")) {
                    forumTags.computeIfAbsent(forum, k -> new ArrayList<>()).add(t.asLong());
                }
            }
            case "IU5" -> {
                long forum = p.get("forumId").asLong();
                long person = p.get("personId").asLong();
                require(forumTitle.containsKey(forum) && persons.containsKey(person), "membership of missing nodes");
                Map<Long, Long> m = members.computeIfAbsent(forum, k -> new HashMap<>());
                require(!m.containsKey(person), "membership exists");
                m.put(person, p.get("joinDate").asLong());
            }
            case "IU6" -> {
                long id = p.get("postId").asLong();
                long author = p.get("authorPersonId").asLong();
                require(!messages.containsKey(id), "message " + id + " exists");
                require(persons.containsKey(author) && forumTitle.containsKey(p.get("forumId").asLong()), "post refs");
                messages.put(id, new Message(id, true, p.get("imageFile").asText(), p.get("creationDate").asLong(),
                    p.get("content").asText()));
                creatorOf.put(id, author);
                messagesBy.computeIfAbsent(author, k -> new ArrayList<>()).add(id);
                forumOfPost.put(id, p.get("forumId").asLong());
                messageCountry.put(id, p.get("countryId").asLong());
                for (com.fasterxml.jackson.databind.JsonNode t : p.get("tagIds")) {
                    messageTags.computeIfAbsent(id, k -> new ArrayList<>()).add(t.asLong());
                }
            }
            case "IU7" -> {
                long id = p.get("commentId").asLong();
                long author = p.get("authorPersonId").asLong();
                long toPost = p.get("replyToPostId").asLong();
                long parent = toPost != -1 ? toPost : p.get("replyToCommentId").asLong();
                require(!messages.containsKey(id), "message " + id + " exists");
                require(persons.containsKey(author) && messages.containsKey(parent)
                    && messages.get(parent).isPost() == (toPost != -1), "comment refs");
                messages.put(id, new Message(id, false, "", p.get("creationDate").asLong(), p.get("content").asText()));
                creatorOf.put(id, author);
                messagesBy.computeIfAbsent(author, k -> new ArrayList<>()).add(id);
                parentOf.put(id, parent);
                repliesTo.computeIfAbsent(parent, k -> new ArrayList<>()).add(id);
                messageCountry.put(id, p.get("countryId").asLong());
                for (com.fasterxml.jackson.databind.JsonNode t : p.get("tagIds")) {
                    messageTags.computeIfAbsent(id, k -> new ArrayList<>()).add(t.asLong());
                }
            }
            case "IU8" -> {
                long a = p.get("person1Id").asLong();
                long b = p.get("person2Id").asLong();
                require(persons.containsKey(a) && persons.containsKey(b), "knows of missing persons");
                require(!knows.get(a).containsKey(b), "knows exists");
                knows.get(a).put(b, p.get("creationDate").asLong());
                knows.get(b).put(a, p.get("creationDate").asLong());
            }
            default -> throw new AssertionError("unknown update " + type);
        }
    }

    private static String joined(com.fasterxml.jackson.databind.JsonNode list) {
        List<String> parts = new ArrayList<>();
        list.forEach(n -> parts.add(n.asText()));
        return String.join(";", parts);
    }

    private static void require(boolean ok, String problem) {
        if (!ok) {
            throw new AssertionError("update refused: " + problem);
        }
    }
}
