import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A {@code native-image} command for a home laid out by {@code .ci/native/build-cache}: it runs
 * the image builder of the Maven Central jars ({@code lib/svm/builder}) on a stock JDK 25 with
 * JVMCI switched on. It does the part of GraalVM's driver that Quarkus relies on: {@code --version},
 * {@code -J} options, the {@code --name} forms of builder options, {@code -jar}/{@code -cp},
 * {@code META-INF/native-image} of every class-path entry, {@code --exclude-config}.
 */
public class NativeImageLauncher {

    private static final String BUILDER_MODULE = "org.graalvm.nativeimage.builder";
    private static final String BUILDER_MAIN = "com.oracle.svm.hosted.NativeImageGeneratorRunner";
    private static final String META_INF = "META-INF/native-image";

    /** native-image option name to the builder's hosted option (the driver's API options). */
    private static final Map<String, String> API_OPTIONS = Map.ofEntries(
            Map.entry("features", "Features"),
            Map.entry("link-at-build-time", "LinkAtBuildTime"),
            Map.entry("link-at-build-time-paths", "LinkAtBuildTimePaths"),
            Map.entry("enable-url-protocols", "EnableURLProtocols"),
            Map.entry("enable-monitoring", "EnableMonitoringFeatures"),
            Map.entry("enable-native-access", "EnableNativeAccess"),
            Map.entry("add-exports", "AddExports"),
            Map.entry("add-opens", "AddOpens"),
            Map.entry("add-reads", "AddReads"),
            Map.entry("native-compiler-options", "CCompilerOption"),
            Map.entry("native-compiler-path", "CCompilerPath"),
            Map.entry("parallelism", "NumberOfThreads"),
            Map.entry("enable-all-security-services", "EnableAllSecurityServices"),
            Map.entry("report-unsupported-elements-at-runtime", "ReportUnsupportedElementsAtRuntime"),
            Map.entry("install-exit-handlers", "InstallExitHandlers"),
            Map.entry("static", "StaticExecutable"),
            Map.entry("shared", "SharedLibrary"),
            Map.entry("libc", "UseLibC"),
            Map.entry("silent", "BuildOutputSilent"),
            Map.entry("color", "Color"),
            Map.entry("exact-reachability-metadata", "ThrowMissingRegistrationErrors"),
            Map.entry("future-defaults", "FutureDefaults"),
            Map.entry("strict-image-heap", "StrictImageHeap"));

    /** The value an API option takes when given without one (the builder's APIOption default). */
    private static final Map<String, String> API_DEFAULTS = Map.of(
            "link-at-build-time", "",
            "exact-reachability-metadata", "",
            "enable-monitoring", "all");

    /** Options that stand for one fixed value of a builder option. */
    private static final Map<String, String> FIXED_OPTIONS = Map.of(
            "--no-fallback", "-H:FallbackThreshold=0",
            "--enable-http", "-H:EnableURLProtocols=http",
            "--enable-https", "-H:EnableURLProtocols=https",
            "--gc=serial", "-H:+UseSerialGC",
            "--gc=epsilon", "-H:+UseEpsilonGC",
            "-g", "-H:GenerateDebugInfo=2",
            "--verbose", "-H:+UnlockExperimentalVMOptions");

    private final Path home;
    private final String version;
    private final List<String> javaArgs = new ArrayList<>();
    private final List<String> builderArgs = new ArrayList<>();
    private final Set<Path> classpath = new LinkedHashSet<>();
    private final List<Pattern[]> excludedConfigs = new ArrayList<>();
    private String mainClass;
    private String imageName;
    private boolean jarMode;
    private boolean dryRun;

    NativeImageLauncher(Path home, String version) {
        this.home = home;
        this.version = version;
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(System.getProperty("native.home")).toAbsolutePath().normalize();
        String version = Files.readString(home.resolve("VERSION")).trim();
        NativeImageLauncher launcher = new NativeImageLauncher(home, version);
        List<String> all = launcher.expandArgFiles(List.of(args));
        if (all.contains("--version")) {
            launcher.printVersion();
            return;
        }
        System.exit(launcher.build(all));
    }

    /** The lines Quarkus parses (GraalVM.Version): the builder's version and the JDK it runs on. */
    private void printVersion() {
        Runtime.Version jdk = Runtime.version();
        String build = jdk.feature() + "." + jdk.interim() + "." + jdk.update() + "+" + jdk.build().orElse(0);
        System.out.println("native-image " + version + " " + System.getProperty("java.version.date"));
        System.out.println("OpenJDK Runtime Environment Mandrel-" + version + ".0-Final (build " + build + ")");
        System.out.println("OpenJDK 64-Bit Server VM Mandrel-" + version + ".0-Final (build " + build + ", mixed mode)");
    }

    private List<String> expandArgFiles(List<String> args) throws IOException {
        List<String> out = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("@") && arg.length() > 1) {
                for (String line : Files.readAllLines(Path.of(arg.substring(1)))) {
                    for (String word : line.trim().split("\\s+")) {
                        if (!word.isEmpty()) {
                            out.add(word);
                        }
                    }
                }
            } else {
                out.add(arg);
            }
        }
        return out;
    }

    private int build(List<String> args) throws Exception {
        parse(args, "command line");
        for (Path entry : List.copyOf(classpath)) {
            readMetaInf(entry);
        }
        if (mainClass == null && !builderArgs.stream().anyMatch(a -> a.startsWith("-H:+SharedLibrary"))) {
            throw new IllegalArgumentException("no main class: give -jar, or a class name after -cp");
        }
        if (imageName == null) {
            imageName = mainClass.toLowerCase();
        }
        Path workDir = Path.of("").toAbsolutePath();
        Path clibs = home.resolve("lib/svm/clibraries/linux-amd64");

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("@" + home.resolve("lib/svm/builder-jvm.args"));
        command.add("-Dorg.graalvm.version=" + version);
        command.add("-Dorg.graalvm.vendorversion=Mandrel-" + version + ".0-Final");
        command.addAll(javaArgs);
        // the JDK's own jdk.graal.compiler module gives way to the one the builder was built with
        command.add("--upgrade-module-path");
        command.add(home.resolve("lib/svm/upgrade").toString());
        command.add("--module-path");
        command.add(home.resolve("lib/svm/builder").toString());
        command.add("--module");
        command.add(BUILDER_MODULE + "/" + BUILDER_MAIN);
        command.add("-keepalive");
        command.add("/proc/" + ProcessHandle.current().pid() + "/comm");

        List<String> imageArgs = new ArrayList<>();
        imageArgs.add("-imagecp");
        imageArgs.add(String.join(":", classpath.stream().map(Path::toString).toList()));
        imageArgs.add("-H:CLibraryPath=" + clibs);
        imageArgs.add("-H:Path=" + workDir);
        // the JDK's shared libraries and libjvm.so of build-cache, found at run time
        imageArgs.add("-H:NativeLinkerOption=-Wl,-rpath," + clibs + ":" + home.resolve("lib"));
        imageArgs.addAll(builderArgs);
        imageArgs.add("-H:Class=" + (mainClass == null ? "" : mainClass));
        imageArgs.add("-H:Name=" + imageName);
        // the builder seeds the image's build id from this, as with GraalVM's driver
        imageArgs.add("-H:ImageBuildID=" + UUID.nameUUIDFromBytes(String.join("\0", imageArgs).getBytes(StandardCharsets.UTF_8)));
        Path argFile = Files.createTempFile("native-image-", ".args");
        Files.writeString(argFile, String.join("\0", imageArgs));
        command.add("--image-args-file=" + argFile);

        if (dryRun) {
            System.out.println(String.join(" ", command));
            System.out.println(String.join("\n", imageArgs));
            return 0;
        }
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        pb.environment().put("USE_NATIVE_IMAGE_JAVA_PLATFORM_MODULE_SYSTEM", "true");
        pb.environment().putIfAbsent("JVMCI_VERSION_CHECK", "warn");
        Path tmp = Files.createTempDirectory("native-image-driver-");
        pb.environment().put("DRIVER_TEMP_DIR_ENV_VARIABLE", tmp.toString());
        try {
            return pb.start().waitFor();
        } finally {
            Files.deleteIfExists(argFile);
        }
    }

    private void parse(List<String> args, String origin) throws IOException {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.startsWith("-J")) {
                javaArgs.add(arg.substring(2));
            } else if (arg.startsWith("-H:") || arg.startsWith("-R:")) {
                builderArgs.add(arg);
            } else if (arg.equals("-jar")) {
                addJar(Path.of(args.get(++i)));
            } else if (arg.equals("-cp") || arg.equals("-classpath") || arg.equals("--class-path")) {
                for (String entry : args.get(++i).split(":")) {
                    classpath.add(Path.of(entry).toAbsolutePath().normalize());
                }
            } else if (arg.equals("-o")) {
                imageName = args.get(++i);
            } else if (arg.equals("--dry-run")) {
                dryRun = true;
            } else if (arg.equals("--exclude-config")) {
                excludedConfigs.add(new Pattern[] {Pattern.compile(args.get(++i)), Pattern.compile(args.get(++i))});
            } else if (arg.startsWith("-march=")) {
                builderArgs.add("-H:MicroArchitecture=" + arg.substring("-march=".length()));
            } else if (arg.startsWith("-O") && arg.length() > 2) {
                builderArgs.add("-H:Optimize=" + arg.substring(2));
            } else if (arg.startsWith("-D")) {
                // a system property of the image builder, as with GraalVM's driver
                javaArgs.add(arg);
            } else if (FIXED_OPTIONS.containsKey(arg)) {
                builderArgs.add(FIXED_OPTIONS.get(arg));
            } else if (arg.startsWith("--initialize-at-build-time") || arg.startsWith("--initialize-at-run-time")) {
                String kind = arg.startsWith("--initialize-at-build-time") ? "build_time" : "run_time";
                int eq = arg.indexOf('=');
                String classes = eq < 0 ? "" : arg.substring(eq + 1);
                List<String> parts = new ArrayList<>();
                for (String c : classes.split(",")) {
                    parts.add(c + ":" + kind);
                }
                builderArgs.add("-H:ClassInitialization=" + String.join(",", parts));
            } else if (arg.startsWith("--")) {
                int eq = arg.indexOf('=');
                String name = arg.substring(2, eq < 0 ? arg.length() : eq);
                String hosted = API_OPTIONS.get(name);
                if (hosted == null) {
                    throw new IllegalArgumentException("option " + arg + " (from " + origin + ") is not known to this native-image launcher");
                }
                if (eq >= 0) {
                    builderArgs.add("-H:" + hosted + "=" + arg.substring(eq + 1));
                } else if (API_DEFAULTS.containsKey(name)) {
                    builderArgs.add("-H:" + hosted + "=" + API_DEFAULTS.get(name));
                } else {
                    builderArgs.add("-H:+" + hosted);
                }
            } else if (!arg.startsWith("-")) {
                if (jarMode || mainClass != null) {
                    imageName = arg;
                } else {
                    mainClass = arg;
                }
            } else {
                throw new IllegalArgumentException("option " + arg + " (from " + origin + ") is not known to this native-image launcher");
            }
        }
    }

    private void addJar(Path jar) throws IOException {
        jar = jar.toAbsolutePath().normalize();
        jarMode = true;
        classpath.add(jar);
        try (JarFile jf = new JarFile(jar.toFile())) {
            Manifest manifest = jf.getManifest();
            if (manifest == null) {
                return;
            }
            String main = manifest.getMainAttributes().getValue("Main-Class");
            if (main != null) {
                mainClass = main;
            }
            // as GraalVM's driver: the main jar's module attributes are the image's too
            String opens = manifest.getMainAttributes().getValue("Add-Opens");
            if (opens != null) {
                for (String target : opens.trim().split("\\s+")) {
                    builderArgs.add("-H:AddOpens=" + target + "=ALL-UNNAMED");
                }
            }
            String exports = manifest.getMainAttributes().getValue("Add-Exports");
            if (exports != null) {
                for (String target : exports.trim().split("\\s+")) {
                    builderArgs.add("-H:AddExports=" + target + "=ALL-UNNAMED");
                }
            }
            if ("ALL-UNNAMED".equals(manifest.getMainAttributes().getValue("Enable-Native-Access"))) {
                javaArgs.add("--enable-native-access=ALL-UNNAMED");
            }
            String cp = manifest.getMainAttributes().getValue("Class-Path");
            if (cp != null) {
                for (String entry : cp.trim().split("\\s+")) {
                    Path p = jar.getParent().resolve(entry).normalize();
                    if (Files.exists(p)) {
                        classpath.add(p);
                    }
                }
            }
        }
        if (imageName == null) {
            String file = jar.getFileName().toString();
            imageName = file.endsWith(".jar") ? file.substring(0, file.length() - 4) : file;
        }
    }

    /** Config files and native-image.properties under META-INF/native-image of one entry. */
    private void readMetaInf(Path entry) throws IOException {
        if (Files.isDirectory(entry)) {
            readMetaInfTree(entry, entry);
        } else if (Files.isRegularFile(entry)) {
            try (FileSystem fs = FileSystems.newFileSystem(entry)) {
                readMetaInfTree(entry, fs.getPath("/"));
            }
        }
    }

    private void readMetaInfTree(Path entry, Path root) throws IOException {
        Path metaInf = root.resolve(META_INF);
        if (!Files.isDirectory(metaInf)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(metaInf)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            String resource = root.relativize(file).toString();
            if (isExcluded(entry, resource)) {
                continue;
            }
            String name = file.getFileName().toString();
            String option = switch (name) {
                case "reachability-metadata.json" -> "ReachabilityMetadataResources";
                case "jni-config.json" -> "JNIConfigurationResources";
                case "reflect-config.json" -> "ReflectionConfigurationResources";
                case "resource-config.json" -> "ResourceConfigurationResources";
                case "proxy-config.json" -> "DynamicProxyConfigurationResources";
                case "serialization-config.json" -> "SerializationConfigurationResources";
                case "serialization-deny-config.json" -> "SerializationDenyConfigurationResources";
                case "predefined-classes-config.json" -> "PredefinedClassesConfigurationResources";
                default -> null;
            };
            if (option != null) {
                builderArgs.add("-H:+UnlockExperimentalVMOptions");
                builderArgs.add("-H:" + option + "=" + resource);
                builderArgs.add("-H:-UnlockExperimentalVMOptions");
            } else if (name.equals("native-image.properties")) {
                Properties props = new Properties();
                try (InputStream in = Files.newInputStream(file)) {
                    props.load(in);
                }
                String dir = root.relativize(file.getParent()).toString();
                String javaArgsValue = props.getProperty("JavaArgs");
                if (javaArgsValue != null) {
                    for (String a : words(javaArgsValue, dir)) {
                        javaArgs.add(a);
                    }
                }
                String argsValue = props.getProperty("Args");
                if (argsValue != null) {
                    parse(words(argsValue, dir), entry + "!/" + resource);
                }
            }
        }
    }

    private static List<String> words(String value, String dir) {
        List<String> out = new ArrayList<>();
        for (String w : value.replace("${.}", dir).trim().split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    private boolean isExcluded(Path entry, String resource) {
        for (Pattern[] p : excludedConfigs) {
            if (p[0].matcher(entry.toString()).find() && p[1].matcher("/" + resource).find()) {
                return true;
            }
        }
        return false;
    }
}
