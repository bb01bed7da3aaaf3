package io.dedupq.api;

import io.dedupq.security.ApiKeyMechanism;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * What /q/openapi says of dedupq's endpoints beyond their own annotations: the API-key scheme,
 * the problem+json error answers that operations reference by name ({@code ref = INVALID}),
 * and on every dedupq operation the key requirement and the answers any call can give whatever
 * it does (401, 403, 503, 507), so that an endpoint cannot be documented without them. Only dedupq's
 * operations and components named {@code Dedupq...} are touched: in an application's own
 * document (where it has quarkus-smallrye-openapi) its own operations stay as they are.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class ApiDocumentation implements OASFilter {

    public static final String API_KEY = "DedupqApiKey";
    public static final String INVALID = "DedupqInvalid";
    public static final String NOT_FOUND = "DedupqNotFound";
    public static final String CONFLICT = "DedupqConflict";
    public static final String TOO_LARGE = "DedupqTooLarge";
    private static final String UNAUTHORIZED = "DedupqUnauthorized";
    private static final String FORBIDDEN = "DedupqForbidden";
    private static final String UNAVAILABLE = "DedupqUnavailable";
    private static final String FULL = "DedupqFull";
    private static final String PROBLEM = "DedupqProblem";

    private static final Map<String, String> EVERY_CALL = Map.of("401", UNAUTHORIZED, "403", FORBIDDEN, "503", UNAVAILABLE,
            "507", FULL);

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        Components components = openAPI.getComponents();
        components.addSecurityScheme(API_KEY, OASFactory.createSecurityScheme().type(SecurityScheme.Type.APIKEY)
                .in(SecurityScheme.In.HEADER).name(ApiKeyMechanism.HEADER)
                .description("A key from dedupq.security.keys.<name>.secret; role producer or operator"));
        components.addSchema(PROBLEM, problemSchema());
        components.addResponse(INVALID, problem("Invalid input; nothing was changed",
                "{\"type\":\"urn:dedupq:problem:invalid-request\",\"title\":\"Invalid request\",\"status\":400,"
                        + "\"detail\":\"payload.amount must be greater than 0\",\"errors\":[{\"field\":\"payload.amount\","
                        + "\"message\":\"must be greater than 0\"}]}"));
        components.addResponse(NOT_FOUND, problem("No such id", "{\"type\":\"urn:dedupq:problem:task-not-found\","
                + "\"title\":\"Not Found\",\"status\":404,\"detail\":\"no task with id pay-0001\"}"));
        components.addResponse(CONFLICT, problem("The id is taken (with another payload, or the resource exists); nothing "
                + "was changed", null));
        components.addResponse(TOO_LARGE, problem("The body is larger than allowed", null));
        components.addResponse(UNAUTHORIZED, problem("No X-API-Key header, or a key that matches none",
                "{\"type\":\"urn:dedupq:problem:unauthenticated\",\"title\":\"Unauthorized\",\"status\":401,"
                        + "\"detail\":\"send a valid API key in the X-API-Key header\"}"));
        components.addResponse(FORBIDDEN, problem("The key does not have the role this endpoint needs", null));
        components.addResponse(UNAVAILABLE, problem("Redis did not answer; retry after Retry-After seconds with the same "
                + "task id", null));
        components.addResponse(FULL, problem("Redis is out of memory (maxmemory) and refused the write (calls that "
                + "write only): what it refused was not written; retry after Retry-After seconds with the same task id",
                null));
        if (openAPI.getPaths() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            if (!ApiPaths.api(path.getKey())) {
                continue;
            }
            for (Operation operation : path.getValue().getOperations().values()) {
                operation.addSecurityRequirement(OASFactory.createSecurityRequirement().addScheme(API_KEY));
                APIResponses responses = operation.getResponses();
                EVERY_CALL.forEach((code, name) -> {
                    if (!responses.hasAPIResponse(code)) {
                        responses.addAPIResponse(code, OASFactory.createAPIResponse().ref(name));
                    }
                });
            }
        }
    }

    /** A problem+json answer, with an example where one is given. */
    private static APIResponse problem(String description, String example) {
        MediaType media = OASFactory.createMediaType().schema(OASFactory.createSchema().ref(PROBLEM));
        if (example != null) {
            media.addExample("example", OASFactory.createExample().value(example));
        }
        return OASFactory.createAPIResponse().description(description)
                .content(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE, media));
    }

    /** {@link Problem} as RFC 9457 has it, with {@code errors} naming each rejected field. */
    private static Schema problemSchema() {
        Schema text = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        Schema fieldError = OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .addProperty("field", text).addProperty("message", text);
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .addProperty("type", text).addProperty("title", text)
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))
                .addProperty("detail", text)
                .addProperty("errors", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY).items(fieldError));
    }
}
