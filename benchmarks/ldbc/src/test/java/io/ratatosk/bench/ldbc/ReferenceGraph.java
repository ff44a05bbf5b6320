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
}
