package io.dedupq.fault;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What the fault suite enqueues and what must come out of it: accounts and campaigns, and a
 * shuffled list of unique payment and voucher tasks spread over them. Generated from a seed, so
 * a failing run can be replayed with the same tasks.
 */
final class TaskPlan {

    static final long OPENING_BALANCE_MINOR = 100_000_000L;
    static final long CAMPAIGN_STOCK = 100_000L;

    /** One unique task; {@code owner} is its account (payment) or campaign (voucher). */
    record Planned(String id, String type, String owner, long amountMinor, Map<String, Object> payload) {

        Map<String, Object> request() {
            return Map.of("id", id, "type", type, "payload", payload);
        }

        boolean payment() {
            return type.equals("payment");
        }
    }

    private final List<String> accounts = new ArrayList<>();
    private final List<String> campaigns = new ArrayList<>();
    private final List<Planned> tasks = new ArrayList<>();

    TaskPlan(long seed, int payments, int vouchers, int accountCount, int campaignCount) {
        Random random = new Random(seed);
        String run = Long.toString(seed, 36);
        for (int i = 0; i < accountCount; i++) {
            accounts.add("fs-" + run + "-acc-" + i);
        }
        for (int i = 0; i < campaignCount; i++) {
            campaigns.add("fs-" + run + "-camp-" + i);
        }
        for (int i = 0; i < payments; i++) {
            String account = accounts.get(random.nextInt(accountCount));
            long amount = 1 + random.nextInt(9_999);
            tasks.add(new Planned("fs-" + run + "-pay-" + i, "payment", account, amount,
                    Map.of("accountId", account, "amount", BigDecimal.valueOf(amount, 2).toPlainString(),
                            "currency", "EUR", "reference", "fault suite " + i)));
        }
        for (int i = 0; i < vouchers; i++) {
            String campaign = campaigns.get(random.nextInt(campaignCount));
            tasks.add(new Planned("fs-" + run + "-vou-" + i, "voucher", campaign, 0,
                    Map.of("campaignId", campaign, "customerId", "cust-" + random.nextInt(1_000))));
        }
        Collections.shuffle(tasks, random);
    }

    List<String> accounts() {
        return accounts;
    }

    List<String> campaigns() {
        return campaigns;
    }

    List<Planned> tasks() {
        return tasks;
    }

    /** The tasks of each account or campaign, by owner id. */
    Map<String, List<Planned>> byOwner() {
        Map<String, List<Planned>> owners = new LinkedHashMap<>();
        accounts.forEach(a -> owners.put(a, new ArrayList<>()));
        campaigns.forEach(c -> owners.put(c, new ArrayList<>()));
        tasks.forEach(t -> owners.get(t.owner()).add(t));
        return owners;
    }
}
