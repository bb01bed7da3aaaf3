package io.dedupq.tasks.voucher;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.PermanentFailure;
import io.dedupq.handler.StaleExecution;
import io.dedupq.handler.TaskHandler;
import io.dedupq.tasks.Examples;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/** Issues one voucher code per task id; the campaign refuses a second issue for the same task. */
@IfBuildProperty(name = Examples.ENABLED, stringValue = "true")
@ApplicationScoped
public class VoucherHandler implements TaskHandler<VoucherPayload> {

    private final Campaigns campaigns;

    public VoucherHandler(Campaigns campaigns) {
        this.campaigns = campaigns;
    }

    @Override
    public String type() {
        return "voucher";
    }

    @Override
    public Class<VoucherPayload> payloadType() {
        return VoucherPayload.class;
    }

    @Override
    public Object handle(VoucherPayload voucher, ExecutionContext ctx) {
        Campaigns.Issue issue = campaigns.issue(voucher.campaignId(), ctx.taskId(), voucher.customerId(),
                ctx.fencingToken());
        return switch (issue.outcome()) {
            case ISSUED -> Map.of("code", issue.code(), "campaignId", voucher.campaignId());
            case ALREADY_ISSUED -> Map.of("campaignId", voucher.campaignId(), "alreadyApplied", true);
            case STALE -> throw new StaleExecution("a newer execution of task " + ctx.taskId() + " already issued");
            case NO_CAMPAIGN -> throw new PermanentFailure("campaign " + voucher.campaignId() + " does not exist");
            case OUT_OF_STOCK -> throw new PermanentFailure("campaign " + voucher.campaignId() + " is out of stock");
        };
    }
}
