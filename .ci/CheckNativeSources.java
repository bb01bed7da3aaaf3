import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads what `./mvnw package -Dnative -Dquarkus.native.sources-only=true` left in
 * target/native-sources and checks that native-image would get what dedupq needs at run time:
 * every Lua script and dashboard file inside the runner jar and matched by a resource pattern,
 * and every class annotated @RegisterForReflection (the payloads, the envelope, the API bodies)
 * registered with its constructors, methods and fields. Run with: java .ci/CheckNativeSources.java
 */
public class CheckNativeSources {

    private static final String ANNOTATION = "Lio/quarkus/runtime/annotations/RegisterForReflection;";
    /** Bound reflectively by Jackson on every task: a build that misses them cannot run a task. */
    private static final List<String> ESSENTIAL = List.of("io.dedupq.queue.Envelope",
            "io.dedupq.tasks.payment.PaymentPayload", "io.dedupq.tasks.voucher.VoucherPayload");
    private static final Pattern RESOURCE_PATTERN = Pattern.compile("\"pattern\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    /** An object without nested objects: the whole-class entries of reflect-config.json are such. */
    private static final Pattern REFLECT_ENTRY = Pattern.compile("\\{([^{}]*)}");
    private static final Pattern NAME = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]+)\"");

    private final List<String> failures = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        Path sources = Path.of("target", "native-sources");
        Path argsFile = sources.resolve("native-image.args");
        if (!Files.exists(argsFile)) {
            fail(List.of(argsFile + " is missing: run ./mvnw package -Dnative -Dquarkus.native.sources-only=true"));
        }
        List<String> nativeArgs = List.of(Files.readString(argsFile).trim().split("\\s+"));
        int jarFlag = nativeArgs.indexOf("-jar");
        if (jarFlag < 0 || jarFlag + 1 >= nativeArgs.size()) {
            fail(List.of(argsFile + " names no -jar"));
        }
        Path runner = sources.resolve(nativeArgs.get(jarFlag + 1));
        CheckNativeSources check = new CheckNativeSources();
        int resources;
        int classes;
        try (ZipFile jar = new ZipFile(runner.toFile())) {
            resources = check.resources(jar);
            classes = check.reflection(jar);
        }
        if (!check.failures.isEmpty()) {
            fail(check.failures);
        }
        System.out.println("native sources OK: " + resources + " resources (lua/, dashboard) and " + classes
                + " @RegisterForReflection classes are in " + runner);
    }

    /** Every file under src/main/resources/lua and META-INF/resources is packed and included. */
    private int resources(ZipFile jar) throws IOException {
        // Quarkus's own (the dashboard's static files) and the framework jar's (its Lua scripts,
        // META-INF/native-image/io.dedupq/dedupq/): native-image reads every one on the class path
        List<Pattern> includes = new ArrayList<>();
        for (String config : jar.stream().map(ZipEntry::getName)
                .filter(n -> n.startsWith("META-INF/native-image/") && n.endsWith("/resource-config.json")).toList()) {
            Matcher m = RESOURCE_PATTERN.matcher(entry(jar, config));
            while (m.find()) {
                includes.add(Pattern.compile(m.group(1).replace("\\\\", "\\")));
            }
        }
        Path root = Path.of("src", "main", "resources");
        Set<String> needed = new TreeSet<>();
        for (Path folder : List.of(root.resolve("lua"), root.resolve("META-INF/resources"))) {
            if (Files.isDirectory(folder)) {
                try (Stream<Path> files = Files.walk(folder)) {
                    files.filter(Files::isRegularFile).forEach(f -> needed.add(root.relativize(f).toString().replace('\\', '/')));
                }
            }
        }
        if (needed.stream().noneMatch(name -> name.startsWith("lua/"))) {
            failures.add("no Lua script found under " + root.resolve("lua"));
        }
        for (String name : needed) {
            if (jar.getEntry(name) == null) {
                failures.add("resource " + name + " is not in the runner jar");
            }
            if (includes.stream().noneMatch(p -> p.matcher(name).matches())) {
                failures.add("resource " + name + " matches no pattern of resource-config.json");
            }
        }
        return needed.size();
    }

    /** Every class compiled with @RegisterForReflection is registered for constructors, methods and fields. */
    private int reflection(ZipFile jar) throws IOException {
        String config = entry(jar, "META-INF/native-image/reflect-config.json");
        Set<String> registered = new TreeSet<>();
        Matcher m = REFLECT_ENTRY.matcher(config);
        while (m.find()) {
            String flags = m.group(1).replace(" ", "");
            Matcher name = NAME.matcher(flags);
            if (name.find() && flags.contains("\"allDeclaredConstructors\":true")
                    && flags.contains("\"allDeclaredMethods\":true") && flags.contains("\"allDeclaredFields\":true")) {
                registered.add(name.group(1));
            }
        }
        Set<String> annotated = annotatedClasses(Path.of("target", "classes"));
        for (String name : ESSENTIAL) {
            if (!annotated.contains(name)) {
                failures.add(name + " is not annotated @RegisterForReflection");
            }
        }
        for (String name : annotated) {
            if (!registered.contains(name)) {
                failures.add(name + " is not registered for reflection in reflect-config.json");
            }
        }
        return annotated.size();
    }

    /** Class files whose constant pool names the annotation: the compiled @RegisterForReflection classes. */
    private static Set<String> annotatedClasses(Path classes) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                try {
                    if (new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(ANNOTATION)) {
                        String relative = classes.relativize(f).toString();
                        names.add(relative.substring(0, relative.length() - ".class".length()).replace('/', '.'));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return names;
    }

    private static String entry(ZipFile jar, String name) throws IOException {
        var entry = jar.getEntry(name);
        if (entry == null) {
            fail(List.of(name + " is missing from " + jar.getName()));
        }
        try (var in = jar.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void fail(List<String> problems) {
        problems.forEach(p -> System.err.println("native sources: " + p));
        System.exit(1);
    }
}
