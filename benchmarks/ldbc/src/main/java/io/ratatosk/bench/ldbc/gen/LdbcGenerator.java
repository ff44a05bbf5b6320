package io.ratatosk.bench.ldbc.gen;

import io.ratatosk.bench.ldbc.ProgressOutput;
import io.ratatosk.bench.ldbc.load.LdbcSchema;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generates an LDBC SNB-shaped graph at any scale, deterministically (the same scale and seed
 * give the same bytes), in the vanilla CSV layout of the sample: static places, organisations,
 * tags and tag classes; persons with power-law knows degrees (half of each person's edges go to
 * nearby persons, half preferentially to persons of high degree); a wall forum per person with its
 * friends as members and group forums; posts whose number grows with the author's degree, comment
 * threads on them by forum members, likes; and substitution parameters for the complex reads drawn
 * from the generated data. Scale 1 is {@value #PERSONS_AT_SCALE_1} persons, a store of about
 * 260 MiB; the size grows linearly with the scale.
 */
public final class LdbcGenerator {
    public static final int PERSONS_AT_SCALE_1 = 10_000;
    static final long DAY = 86_400_000L;
    /** 2010-01-01 and 2013-01-01, UTC. */
    static final long START = 1_262_304_000_000L;
    static final long END = 1_356_998_400_000L;
    private static final int CONTINENTS = 6;
    private static final int COUNTRIES = 50;
    private static final int CITIES_PER_COUNTRY = 8;
    private static final int COMPANIES_PER_COUNTRY = 5;
    private static final int TAG_CLASSES = 30;
    private static final int TAGS = 1000;
    private static final int PARAMETER_ROWS = 100;
    /** Knows degrees: a Pareto law with this minimum and exponent, capped. */
    private static final double MIN_DEGREE = 3;
    private static final double DEGREE_EXPONENT = 2.1;
    private static final int NEIGHBOURHOOD = 25;
    private static final String[] BROWSERS = {"Firefox", "Chrome", "Internet Explorer", "Safari", "Opera"};
    private static final double[] BROWSER_SHARES = {0.35, 0.35, 0.2, 0.05, 0.05};
    private static final String[] SHORT_COMMENTS = {"ok", "yes", "no", "thx", "LOL", "good", "great", "cool",
        "maybe", "right", "I see", "fine", "duh", "roflol", "thanks"};

    private final double scale;
    private final long seed;
    private final ProgressOutput progress;
    private final NameBank bank = new NameBank();
    private final int persons;

    // persons, by index
    private long[] personCreated;
    private int[] personCountry;
    private int[] personCity;
    private int[] personFirstName;
    private int[] personLastName;
    private String[] personIp;
    private String[] personBrowser;
    private int[][] personInterests;
    // knows, as adjacency (CSR)
    private int[] friendStart;
    private int[] friends;
    private long[] friendSince;
    // group forums
    private int[][] groupMembers;
    private int[][] groupsOfPerson;
    private long[] groupCreated;
    private long nextMessageId = 3_000_000_000L;

    public LdbcGenerator(double scale, long seed, ProgressOutput progress) {
        if (!(scale > 0) || scale > 10_000) {
            throw new IllegalArgumentException("scale must be in (0, 10000]: " + scale);
        }
        this.scale = scale;
        this.seed = seed;
        this.progress = progress;
        this.persons = (int) Math.max(20, Math.round(PERSONS_AT_SCALE_1 * scale));
    }

    public int persons() {
        return persons;
    }

    static long personId(int i) {
        return 10_000L + 37L * i;
    }

    static long wallForumId(int i) {
        return 1_000_000_000L + i;
    }

    static long groupForumId(int g) {
        return 2_000_000_000L + g;
    }

    private static int cityPlace(int country, int city) {
        return CONTINENTS + COUNTRIES + country * CITIES_PER_COUNTRY + city;
    }

    private static int countryPlace(int country) {
        return CONTINENTS + country;
    }

    private static int university(int country, int city) {
        return country * CITIES_PER_COUNTRY + city;
    }

    private static int company(int country, int k) {
        return COUNTRIES * CITIES_PER_COUNTRY + country * COMPANIES_PER_COUNTRY + k;
    }

    private static String language(int country) {
        return country == 0 ? "en" : String.valueOf((char) ('a' + country % 26)) + (char) ('a' + (country * 7) % 26);
    }

    /** Writes the data set into {@code root} ({@code vanilla/static}, {@code vanilla/dynamic}, {@code substitution_parameters}). */
    public void write(Path root) throws IOException {
        long started = System.nanoTime();
        progress.line("generating scale %s (seed %d): %,d persons into %s", scale, seed, persons, root);
        try (Files out = new Files(root)) {
            writeStatic(out);
            writePersons(out);
            writeKnows(out);
            writeForums(out);
            writeActivity(out);
        }
        writeParameters(root.resolve("substitution_parameters"));
        progress.line("generated %,d persons and %,d messages in %.1f s", persons, nextMessageId - 3_000_000_000L,
            (System.nanoTime() - started) / 1e9);
    }

    // ---- static --------------------------------------------------------------------------------------

    private void writeStatic(Files out) throws IOException {
        List<String> names = bank.placeNames;
        for (int c = 0; c < CONTINENTS; c++) {
            String name = names.get(c);
            out.row("place", c, name, "http://dbpedia.org/resource/" + name, "continent");
        }
        for (int c = 0; c < COUNTRIES; c++) {
            String name = names.get(CONTINENTS + c);
            out.row("place", countryPlace(c), name, "http://dbpedia.org/resource/" + name, "country");
            out.row("place_isPartOf_place", countryPlace(c), c % CONTINENTS);
            for (int k = 0; k < CITIES_PER_COUNTRY; k++) {
                String city = names.get(CONTINENTS + COUNTRIES + c * CITIES_PER_COUNTRY + k);
                out.row("place", cityPlace(c, k), city, "http://dbpedia.org/resource/" + city, "city");
                out.row("place_isPartOf_place", cityPlace(c, k), countryPlace(c));
            }
        }
        for (int c = 0; c < COUNTRIES; c++) {
            for (int k = 0; k < CITIES_PER_COUNTRY; k++) {
                String name = "University_of_" + bank.placeNames.get(CONTINENTS + COUNTRIES + c * CITIES_PER_COUNTRY + k);
                out.row("organisation", university(c, k), "university", name, "http://dbpedia.org/resource/" + name);
                out.row("organisation_isLocatedIn_place", university(c, k), cityPlace(c, k));
            }
        }
        for (int c = 0; c < COUNTRIES; c++) {
            for (int k = 0; k < COMPANIES_PER_COUNTRY; k++) {
                String name = bank.lastNames.get((c * COMPANIES_PER_COUNTRY + k) % bank.lastNames.size()) + "_"
                    + (k % 2 == 0 ? "Air" : "Group");
                out.row("organisation", company(c, k), "company", name, "http://dbpedia.org/resource/" + name);
                out.row("organisation_isLocatedIn_place", company(c, k), countryPlace(c));
            }
        }
        SplittableRandom random = new SplittableRandom(seed ^ 0x57A71CL);
        for (int t = 0; t < TAG_CLASSES; t++) {
            String name = bank.words.get(t).toUpperCase(Locale.ROOT).charAt(0) + bank.words.get(t).substring(1) + "Class";
            out.row("tagclass", t, name, "http://dbpedia.org/ontology/" + name);
            if (t > 0) {
                out.row("tagclass_isSubclassOf_tagclass", t, (t - 1) / 2);
            }
        }
        for (int t = 0; t < TAGS; t++) {
            String name = bank.lastNames.get(t) + "_" + bank.words.get(t % bank.words.size());
            out.row("tag", t, name, "http://dbpedia.org/resource/" + name);
            out.row("tag_hasType_tagclass", t, random.nextInt(TAG_CLASSES));
        }
    }

    // ---- persons ---------------------------------------------------------------------------------------

    private void writePersons(Files out) throws IOException {
        personCreated = new long[persons];
        personCountry = new int[persons];
        personCity = new int[persons];
        personFirstName = new int[persons];
        personLastName = new int[persons];
        personIp = new String[persons];
        personBrowser = new String[persons];
        personInterests = new int[persons][];
        for (int i = 0; i < persons; i++) {
            SplittableRandom r = random(1, i);
            long id = personId(i);
            int country = NameBank.cubedIndex(r, COUNTRIES);
            int city = r.nextInt(CITIES_PER_COUNTRY);
            personCountry[i] = country;
            personCity[i] = city;
            personFirstName[i] = NameBank.cubedIndex(r, bank.firstNames.size());
            personLastName[i] = NameBank.cubedIndex(r, bank.lastNames.size());
            String first = bank.firstNames.get(personFirstName[i]);
            long birthDay = 3652 + r.nextInt(5844); // 1980-01-01 .. 1995-12-31
            long created = START + (long) (r.nextDouble() * 0.7 * (END - START));
            personCreated[i] = created;
            personIp[i] = (1 + r.nextInt(223)) + "." + r.nextInt(256) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254));
            personBrowser[i] = pick(r, BROWSERS, BROWSER_SHARES);
            String languages = country == 0 ? "en" : language(country) + ";en";
            StringBuilder emails = new StringBuilder();
            int emailCount = 1 + r.nextInt(3);
            String[] domains = {"gmail.com", "yahoo.com", "gmx.com", "hotmail.com", "zoho.com"};
            for (int e = 0; e < emailCount; e++) {
                emails.append(e == 0 ? "" : ";").append(first).append(id).append('@').append(domains[(e + i) % domains.length]);
            }
            out.row("person", id, first, bank.lastNames.get(personLastName[i]), r.nextBoolean() ? "male" : "female",
                birthDay * DAY, created, personIp[i], personBrowser[i], languages, emails);
            out.row("person_isLocatedIn_place", id, cityPlace(country, city));
            int interests = 1 + r.nextInt(6);
            Set<Integer> tags = new HashSet<>();
            int[] list = new int[interests];
            int n = 0;
            while (n < interests) {
                int tag = NameBank.cubedIndex(r, TAGS);
                if (tags.add(tag)) {
                    list[n++] = tag;
                    out.row("person_hasInterest_tag", id, tag);
                }
            }
            personInterests[i] = list;
            int birthYear = 1970 + (int) (birthDay / 365.25);
            if (r.nextDouble() < 0.8) {
                int uniCountry = r.nextDouble() < 0.8 ? country : r.nextInt(COUNTRIES);
                out.row("person_studyAt_organisation", id, university(uniCountry, r.nextInt(CITIES_PER_COUNTRY)),
                    birthYear + 18 + r.nextInt(7));
            }
            int jobs = r.nextInt(3);
            Set<Integer> companies = new HashSet<>();
            for (int j = 0; j < jobs; j++) {
                int c = company(r.nextDouble() < 0.7 ? country : r.nextInt(COUNTRIES), r.nextInt(COMPANIES_PER_COUNTRY));
                if (companies.add(c)) {
                    out.row("person_workAt_organisation", id, c, birthYear + 20 + r.nextInt(12));
                }
            }
        }
    }

    // ---- knows -----------------------------------------------------------------------------------------

    /** Pareto degrees; each person draws about half its degree of partners, near it or by degree. */
    private void writeKnows(Files out) throws IOException {
        SplittableRandom r = random(2, 0);
        int cap = Math.max(20, Math.min(persons - 1, persons / 4));
        int[] degree = new int[persons];
        long[] cumulative = new long[persons];
        long total = 0;
        for (int i = 0; i < persons; i++) {
            double u = r.nextDouble();
            degree[i] = (int) Math.min(cap, Math.floor(MIN_DEGREE / Math.pow(1 - u, 1 / (DEGREE_EXPONENT - 1))));
            total += degree[i];
            cumulative[i] = total;
        }
        long[] edges = new long[(int) Math.min(Integer.MAX_VALUE - 8, total + persons)];
        int count = 0;
        for (int i = 0; i < persons; i++) {
            int wanted = (degree[i] + 1) / 2;
            for (int k = 0; k < wanted && count < edges.length; k++) {
                int j;
                if (r.nextBoolean()) {
                    int offset = 1 + r.nextInt(NEIGHBOURHOOD);
                    j = Math.floorMod(i + (r.nextBoolean() ? offset : -offset), persons);
                } else {
                    long x = r.nextLong(total);
                    int pos = Arrays.binarySearch(cumulative, x + 1);
                    j = pos >= 0 ? pos : -pos - 1;
                }
                if (j != i) {
                    edges[count++] = (long) Math.min(i, j) * persons + Math.max(i, j);
                }
            }
        }
        Arrays.sort(edges, 0, count);
        int unique = 0;
        for (int e = 0; e < count; e++) {
            if (unique == 0 || edges[unique - 1] != edges[e]) {
                edges[unique++] = edges[e];
            }
        }
        int[] deg = new int[persons];
        for (int e = 0; e < unique; e++) {
            deg[(int) (edges[e] / persons)]++;
            deg[(int) (edges[e] % persons)]++;
        }
        friendStart = new int[persons + 1];
        for (int i = 0; i < persons; i++) {
            friendStart[i + 1] = friendStart[i] + deg[i];
        }
        friends = new int[2 * unique];
        friendSince = new long[2 * unique];
        int[] fill = Arrays.copyOf(friendStart, persons);
        for (int e = 0; e < unique; e++) {
            int a = (int) (edges[e] / persons);
            int b = (int) (edges[e] % persons);
            long earliest = Math.max(personCreated[a], personCreated[b]);
            long since = Math.min(END - DAY, earliest + (long) (r.nextDouble() * 200 * DAY));
            out.row("person_knows_person", personId(a), personId(b), since);
            friends[fill[a]] = b;
            friendSince[fill[a]++] = since;
            friends[fill[b]] = a;
            friendSince[fill[b]++] = since;
        }
        progress.line("knows: %,d friendships, mean degree %.1f, max degree %d", unique, 2.0 * unique / persons,
            Arrays.stream(deg).max().orElse(0));
    }

    // ---- forums ----------------------------------------------------------------------------------------

    private void writeForums(Files out) throws IOException {
        for (int i = 0; i < persons; i++) {
            long forum = wallForumId(i);
            out.row("forum", forum, "Wall of " + bank.firstNames.get(personFirstName[i]) + " "
                + bank.lastNames.get(personLastName[i]), personCreated[i] + 1000);
            out.row("forum_hasModerator_person", forum, personId(i));
            out.row("forum_hasTag_tag", forum, personInterests[i][0]);
            for (int f = friendStart[i]; f < friendStart[i + 1]; f++) {
                out.row("forum_hasMember_person", forum, personId(friends[f]), friendSince[f]);
            }
        }
        SplittableRandom r = random(3, 0);
        int groups = Math.max(1, persons / 20);
        groupMembers = new int[groups][];
        groupCreated = new long[groups];
        int[] memberships = new int[persons];
        for (int g = 0; g < groups; g++) {
            int moderator = r.nextInt(persons);
            long created = personCreated[moderator] + (long) (r.nextDouble() * 30 * DAY);
            groupCreated[g] = created;
            int tag = personInterests[moderator][0];
            long forum = groupForumId(g);
            out.row("forum", forum, "Group for " + bank.lastNames.get(tag) + " in "
                + bank.placeNames.get(CONTINENTS + personCountry[moderator]), created);
            out.row("forum_hasModerator_person", forum, personId(moderator));
            out.row("forum_hasTag_tag", forum, tag);
            int size = Math.min(persons, 3 + NameBank.cubedIndex(r, 120));
            Set<Integer> members = new HashSet<>();
            members.add(moderator);
            // Members: the moderator's friends first, then anyone.
            for (int f = friendStart[moderator]; f < friendStart[moderator + 1] && members.size() < size; f++) {
                if (r.nextBoolean()) {
                    members.add(friends[f]);
                }
            }
            while (members.size() < size) {
                members.add(r.nextInt(persons));
            }
            int[] list = members.stream().mapToInt(Integer::intValue).sorted().toArray();
            groupMembers[g] = list;
            for (int m : list) {
                out.row("forum_hasMember_person", forum, personId(m),
                    Math.max(created, personCreated[m]) + (long) (r.nextDouble() * 10 * DAY));
                memberships[m]++;
            }
        }
        groupsOfPerson = new int[persons][];
        for (int i = 0; i < persons; i++) {
            groupsOfPerson[i] = new int[memberships[i]];
            memberships[i] = 0;
        }
        for (int g = 0; g < groups; g++) {
            for (int m : groupMembers[g]) {
                groupsOfPerson[m][memberships[m]++] = g;
            }
        }
    }

    // ---- posts, comments, likes ------------------------------------------------------------------------

    private void writeActivity(Files out) throws IOException {
        try (ProgressOutput.Task task = progress.task("generate messages", persons, "persons", 1)) {
            for (int i = 0; i < persons; i++) {
                SplittableRandom r = random(4, i);
                int degree = friendStart[i + 1] - friendStart[i];
                int posts = (int) Math.round((1 + degree * 0.8) * (0.5 + r.nextDouble()));
                for (int p = 0; p < posts; p++) {
                    writePost(out, r, i);
                }
                if (i % 1000 == 999) {
                    task.stepBy(1000);
                }
            }
            task.stepTo(persons);
        }
    }

    private void writePost(Files out, SplittableRandom r, int author) throws IOException {
        int[] groups = groupsOfPerson[author];
        boolean inGroup = groups.length > 0 && r.nextDouble() < 0.3;
        int group = inGroup ? groups[r.nextInt(groups.length)] : -1;
        long forum = inGroup ? groupForumId(group) : wallForumId(author);
        long earliest = Math.max(personCreated[author], inGroup ? groupCreated[group] : personCreated[author]) + 3_600_000L;
        long created = between(r, earliest, END - 30 * DAY);
        long id = nextMessageId++;
        int country = personCountry[author];
        if (r.nextDouble() < 0.2) {
            out.row("post", id, "photo" + id + ".jpg", created, personIp[author], personBrowser[author], "", "", 0);
        } else {
            String text = text(r, 20 + (int) Math.min(1500, 30 / Math.pow(1 - r.nextDouble(), 1.2)));
            out.row("post", id, "", created, personIp[author], personBrowser[author],
                country == 0 ? "en" : language(country), text, text.length());
        }
        out.row("post_hasCreator_person", id, personId(author));
        out.row("forum_containerOf_post", forum, id);
        out.row("post_isLocatedIn_place", id, countryPlace(country));
        int tags = 1 + r.nextInt(3);
        Set<Integer> used = new HashSet<>();
        for (int t = 0; t < tags; t++) {
            int[] interests = personInterests[author];
            int tag = r.nextDouble() < 0.7 ? interests[r.nextInt(interests.length)] : NameBank.cubedIndex(r, TAGS);
            if (used.add(tag)) {
                out.row("post_hasTag_tag", id, tag);
            }
        }
        int[] members = inGroup ? groupMembers[group] : null;
        likes(out, "person_likes_post", r, id, created, author, members, 1.5);
        // A comment thread: each comment answers the post or an earlier comment, by a forum member.
        int comments = (int) Math.floor(-Math.log(1 - r.nextDouble()) * (1.0 + Math.min(4, (friendStart[author + 1]
            - friendStart[author]) / 10.0)));
        long[] threadIds = new long[comments + 1];
        long[] threadDates = new long[comments + 1];
        threadIds[0] = id;
        threadDates[0] = created;
        for (int c = 1; c <= comments; c++) {
            int parent = c == 1 || r.nextDouble() < 0.4 ? 0 : 1 + r.nextInt(c - 1);
            int commenter = member(r, author, members);
            long date = Math.min(END - 1, threadDates[parent] + 60_000L + (long) (-Math.log(1 - r.nextDouble()) * DAY / 2));
            long cid = nextMessageId++;
            threadIds[c] = cid;
            threadDates[c] = date;
            String text = r.nextDouble() < 0.4 ? SHORT_COMMENTS[r.nextInt(SHORT_COMMENTS.length)]
                : text(r, 10 + (int) Math.min(400, 20 / Math.pow(1 - r.nextDouble(), 1.3)));
            out.row("comment", cid, date, personIp[commenter], personBrowser[commenter], text, text.length());
            out.row("comment_hasCreator_person", cid, personId(commenter));
            if (parent == 0) {
                out.row("comment_replyOf_post", cid, id);
            } else {
                out.row("comment_replyOf_comment", cid, threadIds[parent]);
            }
            out.row("comment_isLocatedIn_place", cid, countryPlace(personCountry[commenter]));
            if (r.nextDouble() < 0.3) {
                out.row("comment_hasTag_tag", cid, NameBank.cubedIndex(r, TAGS));
            }
            likes(out, "person_likes_comment", r, cid, date, commenter, members, 0.4);
        }
    }

    private void likes(Files out, String file, SplittableRandom r, long message, long created, int author,
                       int[] members, double mean) throws IOException {
        int likes = (int) Math.floor(-Math.log(1 - r.nextDouble()) * mean);
        Set<Integer> likers = new HashSet<>();
        for (int l = 0; l < likes; l++) {
            int liker = member(r, author, members);
            if (likers.add(liker)) {
                out.row(file, personId(liker), message, Math.min(END - 1, created + (long) (r.nextDouble() * 5 * DAY)));
            }
        }
    }

    /** A member of the forum: of the group if there is one, else a friend of the wall's owner, or the owner. */
    private int member(SplittableRandom r, int owner, int[] groupMembers) {
        if (groupMembers != null) {
            return groupMembers[r.nextInt(groupMembers.length)];
        }
        int degree = friendStart[owner + 1] - friendStart[owner];
        if (degree == 0 || r.nextDouble() < 0.15) {
            return owner;
        }
        return friends[friendStart[owner] + r.nextInt(degree)];
    }

    private String text(SplittableRandom r, int length) {
        StringBuilder s = new StringBuilder(length + 16);
        while (s.length() < length) {
            if (s.length() > 0) {
                s.append(' ');
            }
            s.append(bank.words.get(NameBank.cubedIndex(r, bank.words.size())));
        }
        return s.toString();
    }

    // ---- substitution parameters -------------------------------------------------------------------

    /**
     * Like LDBC's parameter curation, which picks parameters of similar cost: start persons whose
     * friends-of-friends count lies between the 10th and the 50th percentile of a sample, so that no
     * complex read starts at a hub (they still reach hubs as friends). IC13's pairs are any persons.
     */
    private void writeParameters(Path dir) throws IOException {
        java.nio.file.Files.createDirectories(dir);
        SplittableRandom r = random(5, 0);
        int[] starts = typicalPersons(r);
        try (Writer w1 = writer(dir, "interactive_1_param.txt", "personId|firstName");
             Writer w2 = writer(dir, "interactive_2_param.txt", "personId|maxDate");
             Writer w8 = writer(dir, "interactive_8_param.txt", "personId");
             Writer w9 = writer(dir, "interactive_9_param.txt", "personId|maxDate");
             Writer w13 = writer(dir, "interactive_13_param.txt", "person1Id|person2Id")) {
            for (int k = 0; k < PARAMETER_ROWS; k++) {
                w1.write(personId(starts[r.nextInt(starts.length)]) + "|"
                    + bank.firstNames.get(NameBank.cubedIndex(r, bank.firstNames.size())) + "\n");
                w2.write(personId(starts[r.nextInt(starts.length)]) + "|" + day(between(r, START + (END - START) / 2, END)) + "\n");
                w8.write(personId(starts[r.nextInt(starts.length)]) + "\n");
                w9.write(personId(starts[r.nextInt(starts.length)]) + "|" + day(between(r, START + (END - START) / 2, END)) + "\n");
                w13.write(personId(active(r)) + "|" + personId(active(r)) + "\n");
            }
        }
    }

    private int[] typicalPersons(SplittableRandom r) {
        int sample = Math.min(persons, 2000);
        long[] sizeAndPerson = new long[sample];
        for (int k = 0; k < sample; k++) {
            int p = active(r);
            sizeAndPerson[k] = ((long) twoHops(p) << 32) | p;
        }
        Arrays.sort(sizeAndPerson);
        int from = sample / 10;
        int to = Math.max(from + 1, sample / 2);
        int[] starts = new int[to - from];
        for (int k = from; k < to; k++) {
            starts[k - from] = (int) sizeAndPerson[k];
        }
        return starts;
    }

    /** Persons one or two knows-hops from {@code p}. */
    private int twoHops(int p) {
        Set<Integer> seen = new HashSet<>();
        for (int f = friendStart[p]; f < friendStart[p + 1]; f++) {
            int friend = friends[f];
            seen.add(friend);
            for (int g = friendStart[friend]; g < friendStart[friend + 1]; g++) {
                seen.add(friends[g]);
            }
        }
        seen.remove(p);
        return seen.size();
    }

    /** A person with at least one friend, if a few tries find one. */
    private int active(SplittableRandom r) {
        int i = r.nextInt(persons);
        for (int tries = 0; tries < 10 && friendStart[i + 1] == friendStart[i]; tries++) {
            i = r.nextInt(persons);
        }
        return i;
    }

    private static long day(long millis) {
        return millis / DAY * DAY;
    }

    private static Writer writer(Path dir, String name, String header) throws IOException {
        Writer w = java.nio.file.Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8);
        w.write(header + "\n");
        return w;
    }

    // ---- helpers ---------------------------------------------------------------------------------------

    /** A random stream for one part of the data and one index: parts can change without moving others. */
    private SplittableRandom random(int part, long index) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + part * 0xBF58476D1CE4E5B9L + index);
    }

    private static long between(SplittableRandom r, long from, long to) {
        return to <= from ? from : from + (long) (r.nextDouble() * (to - from));
    }

    private static String pick(SplittableRandom r, String[] values, double[] shares) {
        double x = r.nextDouble();
        for (int i = 0; i < values.length - 1; i++) {
            x -= shares[i];
            if (x < 0) {
                return values[i];
            }
        }
        return values[values.length - 1];
    }

    /** Every CSV file of the layout, open for writing with its header, by base name. */
    private static final class Files implements AutoCloseable {
        private final Map<String, BufferedWriter> writers = new HashMap<>();
        private final StringBuilder line = new StringBuilder(256);

        Files(Path root) throws IOException {
            Path vanilla = root.resolve("vanilla");
            for (LdbcSchema.NodeFile f : LdbcSchema.NODE_FILES) {
                open(vanilla, f.folder(), f.baseName(), f.header());
            }
            for (LdbcSchema.EdgeFile f : LdbcSchema.EDGE_FILES) {
                open(vanilla, f.folder(), f.baseName(), f.header());
            }
        }

        private void open(Path vanilla, String folder, String baseName, List<String> header) throws IOException {
            Path dir = vanilla.resolve(folder);
            java.nio.file.Files.createDirectories(dir);
            BufferedWriter w = java.nio.file.Files.newBufferedWriter(dir.resolve(baseName + "_0_0.csv"),
                StandardCharsets.UTF_8);
            w.write(String.join("|", header));
            w.write('\n');
            writers.put(baseName, w);
        }

        void row(String file, Object... values) throws IOException {
            line.setLength(0);
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    line.append('|');
                }
                line.append(values[i]);
            }
            line.append('\n');
            writers.get(file).append(line);
        }

        @Override
        public void close() throws IOException {
            IOException failure = null;
            for (BufferedWriter w : writers.values()) {
                try {
                    w.close();
                } catch (IOException e) {
                    failure = e;
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }
}
