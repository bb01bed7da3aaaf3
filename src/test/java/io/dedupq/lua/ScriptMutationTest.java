package io.dedupq.lua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.dedupq.queue.LuaScript;
import io.dedupq.support.ScriptLab;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.engine.JupiterTestEngine;
import org.junit.platform.engine.CancellationToken;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherExecutionRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The mutation check of the Lua scripts: each mutation of {@link LuaMutations} is applied
 * alone to its script's source, the mutant is loaded into the scratch redis-server of
 * {@link ScriptLab} in the script's place, and the script's contract test class runs against
 * it. A mutation is killed when at least one contract test fails; one that survives fails its
 * own dynamic test here, named after it. The whole result is written to
 * {@code target/lua-mutations.txt}.
 */
class ScriptMutationTest {

    private static final int AT_LEAST_PER_SCRIPT = 5;
    private static final Map<String, String> RESULTS = new TreeMap<>();

    private final ScriptLab lab = ScriptLab.shared();

    @Test
    void everyScriptOfTheListHasItsMutations() {
        Map<LuaScript, Long> counts = LuaMutations.ALL.stream()
                .collect(Collectors.groupingBy(LuaMutation::script, Collectors.counting()));
        for (LuaScript script : LuaMutations.CONTRACTS.keySet()) {
            assertTrue(counts.getOrDefault(script, 0L) >= AT_LEAST_PER_SCRIPT,
                    script + " has " + counts.getOrDefault(script, 0L) + " mutations, fewer than " + AT_LEAST_PER_SCRIPT);
        }
        assertEquals(LuaMutations.ALL.size(), LuaMutations.ALL.stream().map(LuaMutation::toString).distinct().count(),
                "every mutation has a name of its own");
    }

    @TestFactory
    Stream<DynamicTest> everyScriptPassesItsContractAsItIs() {
        return LuaMutations.CONTRACTS.entrySet().stream().map(contract -> DynamicTest.dynamicTest(
                contract.getKey().name().toLowerCase() + ".lua passes " + names(contract.getValue()), () -> {
                    List<String> failed = run(contract.getValue(), false);
                    assertEquals(List.of(), failed, "the unmutated script must pass its contract, or no kill means anything");
                }));
    }

    @TestFactory
    Stream<DynamicTest> everyMutationIsKilledByAContractTest() {
        return LuaMutations.ALL.stream().map(mutation -> DynamicTest.dynamicTest(mutation.toString(), () -> {
            String mutant = mutation.apply();
            loads(mutation, mutant);
            List<Class<?>> contract = LuaMutations.CONTRACTS.get(mutation.script());
            List<String> killers;
            lab.install(mutation.script(), mutant);
            try {
                killers = run(contract, true);
            } finally {
                lab.restore(mutation.script());
            }
            RESULTS.put(mutation.toString(), killers.isEmpty() ? "SURVIVED" : "killed by " + killers.get(0));
            if (killers.isEmpty()) {
                fail("mutation survived: no test of " + names(contract) + " failed with '" + mutation.name()
                        + "' in " + mutation.file() + "; add the contract test that catches it");
            }
        }));
    }

    @AfterAll
    static void report() throws IOException {
        if (RESULTS.isEmpty()) {
            return;
        }
        long survived = RESULTS.values().stream().filter("SURVIVED"::equals).count();
        List<String> lines = new ArrayList<>();
        lines.add("Lua mutation check: " + RESULTS.size() + " mutations, " + (RESULTS.size() - survived) + " killed, "
                + survived + " survived");
        RESULTS.forEach((mutation, result) -> lines.add(mutation + " -> " + result));
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "lua-mutations.txt"), lines);
        lines.forEach(System.out::println);
    }

    /** SCRIPT LOAD: a mutant that does not compile is a mistake in the list, not a kill. */
    private void loads(LuaMutation mutation, String mutant) {
        try {
            lab.call("SCRIPT", "LOAD", mutant);
        } catch (RuntimeException e) {
            throw new AssertionError("mutation '" + mutation + "' does not compile, so it proves nothing: " + e.getMessage(), e);
        }
    }

    private static String names(List<Class<?>> contracts) {
        return contracts.stream().map(Class::getSimpleName).collect(Collectors.joining(" and "));
    }

    /**
     * Runs a script's contract test classes in a launcher of their own; returns the tests that
     * failed, or only the first when {@code firstFailureEnough} (the rest are cancelled: one kill
     * is all a mutation needs, and the check runs hundreds of mutants).
     */
    private static List<String> run(List<Class<?>> contracts, boolean firstFailureEnough) {
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestEngineAutoRegistration(false)
                .enableLauncherSessionListenerAutoRegistration(false)
                .enableLauncherDiscoveryListenerAutoRegistration(false)
                .enableTestExecutionListenerAutoRegistration(false)
                .enablePostDiscoveryFilterAutoRegistration(false)
                .addTestEngines(new JupiterTestEngine())
                .build());
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        CancellationToken cancellation = CancellationToken.create();
        TestExecutionListener firstFailure = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (firstFailureEnough && test.isTest() && result.getStatus() == TestExecutionResult.Status.FAILED) {
                    cancellation.cancel();
                }
            }
        };
        launcher.execute(LauncherExecutionRequestBuilder.executionRequest(LauncherDiscoveryRequestBuilder.discoveryRequest()
                        .selectors(contracts.stream().map(c -> selectClass(c)).toList()).build())
                .listeners(summary, firstFailure).cancellationToken(cancellation).build());
        TestExecutionSummary result = summary.getSummary();
        if (result.getTestsFoundCount() == 0) {
            throw new AssertionError(names(contracts) + " has no tests to run");
        }
        return result.getFailures().stream().map(TestExecutionSummary.Failure::getTestIdentifier)
                .map(TestIdentifier::getDisplayName).toList();
    }
}
