package io.dedupq.tasks.payment;

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

/** Open an account and audit it: balance and every debit with the task and fencing token that made it. */
@IfBuildProperty(name = Examples.ENABLED, stringValue = "true")
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.ACCOUNTS + "/{id}")
@Tag(name = "accounts", description = "The example account resource the handlers write (role operator)")
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {

    /** Body of PUT: the account's currency and opening balance. */
    @RegisterForReflection
    public record OpenAccount(
            @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be 3 upper-case letters (ISO 4217)") String currency,
            @NotNull @JsonDeserialize(using = MoneyAmount.Deserializer.class)
            @DecimalMin(value = "0", message = "must be 0 or more")
            @DecimalMax(value = "1000000000000", message = "must be at most 1000000000000")
            @Digits(integer = 13, fraction = 2, message = "must have at most 2 decimals") BigDecimal balance) {
    }

    private final Ledger ledger;
    private final JsonBodies bodies;
    private final DedupqConfig config;
    private final ProblemResponses problems;

    public AccountResource(Ledger ledger, JsonBodies bodies, DedupqConfig config, ProblemResponses problems) {
        this.ledger = ledger;
        this.bodies = bodies;
        this.config = config;
        this.problems = problems;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    /** 201 with the new account; 409 when the id is taken (the existing account is untouched). */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Open an account")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = OpenAccount.class), examples = @ExampleObject(name = "account", value = "{\"currency\":\"EUR\",\"balance\":\"100.00\"}")))
    @APIResponse(responseCode = "201", description = "The new account", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = Ledger.Account.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "409", ref = ApiDocumentation.CONFLICT)
    @APIResponse(responseCode = "413", ref = ApiDocumentation.TOO_LARGE)
    public Response open(@PathParam("id") String id, byte[] body) {
        Params.id(id);
        OpenAccount request = bodies.bind(body, config.api().maxBodyBytes(), OpenAccount.class);
        if (!ledger.open(id, request.currency(), request.balance())) {
            throw Params.exists("account", id);
        }
        return Response.status(201).entity(ledger.find(id, 1).orElseThrow()).build();
    }

    @GET
    @Operation(summary = "A account with its newest entries (?limit=1..10000, default 1000)")
    @APIResponse(responseCode = "200", description = "The account", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = Ledger.Account.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public Ledger.Account get(@PathParam("id") String id, @QueryParam("limit") String limit) {
        return ledger.find(Params.id(id), Params.limit(limit)).orElseThrow(() -> Params.notFound("account", id));
    }
}
