package io.dedupq.tasks.voucher;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dedupq.api.ApiDocumentation;
import io.dedupq.api.ApiPaths;
import io.dedupq.api.JsonBodies;
import io.dedupq.api.Params;
import io.dedupq.api.ProblemResponses;
import io.dedupq.config.DedupqConfig;
import io.dedupq.security.Roles;
import io.dedupq.tasks.Examples;
import io.dedupq.tasks.MoneyAmount;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Open a voucher campaign and audit it: remaining stock and every code issued, with its task. */
@IfBuildProperty(name = Examples.ENABLED, stringValue = "true")
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.CAMPAIGNS + "/{id}")
@Tag(name = "campaigns", description = "The example campaign resource the handlers write (role operator)")
@Produces(MediaType.APPLICATION_JSON)
public class CampaignResource {

    /** Body of PUT: how many vouchers, what each is worth. */
    @RegisterForReflection
    public record OpenCampaign(
            @NotNull @Min(0) @Max(100_000_000) Long stock,
            @NotNull @JsonDeserialize(using = MoneyAmount.Deserializer.class)
            @DecimalMin(value = "0", inclusive = false, message = "must be greater than 0")
            @DecimalMax(value = "1000000000", message = "must be at most 1000000000")
            @Digits(integer = 10, fraction = 2, message = "must have at most 2 decimals") BigDecimal value,
            @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be 3 upper-case letters (ISO 4217)") String currency) {
    }

    private final Campaigns campaigns;
    private final JsonBodies bodies;
    private final DedupqConfig config;
    private final ProblemResponses problems;

    public CampaignResource(Campaigns campaigns, JsonBodies bodies, DedupqConfig config, ProblemResponses problems) {
        this.campaigns = campaigns;
        this.bodies = bodies;
        this.config = config;
        this.problems = problems;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    /** 201 with the new campaign; 409 when the id is taken (the existing campaign is untouched). */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Open a campaign")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = OpenCampaign.class), examples = @ExampleObject(name = "campaign", value = "{\"stock\":100,\"value\":\"10.00\",\"currency\":\"EUR\"}")))
    @APIResponse(responseCode = "201", description = "The new campaign", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = Campaigns.Campaign.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "409", ref = ApiDocumentation.CONFLICT)
    @APIResponse(responseCode = "413", ref = ApiDocumentation.TOO_LARGE)
    public Response open(@PathParam("id") String id, byte[] body) {
        Params.id(id);
        OpenCampaign request = bodies.bind(body, config.api().maxBodyBytes(), OpenCampaign.class);
        if (!campaigns.open(id, request.stock(), request.value(), request.currency())) {
            throw Params.exists("campaign", id);
        }
        return Response.status(201).entity(campaigns.find(id, 1).orElseThrow()).build();
    }

    @GET
    @Operation(summary = "A campaign with its newest entries (?limit=1..10000, default 1000)")
    @APIResponse(responseCode = "200", description = "The campaign", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = Campaigns.Campaign.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public Campaigns.Campaign get(@PathParam("id") String id, @QueryParam("limit") String limit) {
        return campaigns.find(Params.id(id), Params.limit(limit)).orElseThrow(() -> Params.notFound("campaign", id));
    }
}
