package io.dedupq.api;

import io.dedupq.security.ApiKeyMechanism;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeIn;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The parts of /q/openapi shared by every endpoint: the API-key scheme and the problem+json
 * error responses, which operations reference by name ({@code ref = "Invalid"}).
 * {@link OpenApiErrors} adds 401, 403 and 503 to every /api operation. SmallRye reads
 * {@code @OpenAPIDefinition} from the JAX-RS {@link Application}, hence the subclass.
 */
@OpenAPIDefinition(
        info = @Info(title = "dedupq", version = "1", description = "Enqueue tasks that run once per id, read their "
                + "status, watch the queues. Every error is application/problem+json (RFC 9457)."),
        security = @SecurityRequirement(name = ApiDocumentation.API_KEY),
        components = @Components(
                securitySchemes = @SecurityScheme(securitySchemeName = ApiDocumentation.API_KEY,
                        type = SecuritySchemeType.APIKEY, in = SecuritySchemeIn.HEADER, apiKeyName = ApiKeyMechanism.HEADER,
                        description = "A key from dedupq.security.keys.<name>.secret; role producer or operator"),
                responses = {
                    @APIResponse(name = "Invalid", responseCode = "400", description = "Invalid input; nothing was changed",
                            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class),
                                    examples = @ExampleObject(name = "invalid", value = ApiDocumentation.INVALID))),
                    @APIResponse(name = "NotFound", responseCode = "404", description = "No such id",
                            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class),
                                    examples = @ExampleObject(name = "not-found", value = ApiDocumentation.NOT_FOUND))),
                    @APIResponse(name = "Conflict", responseCode = "409",
                            description = "The id is taken (with another payload, or the resource exists); nothing was changed",
                            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                    @APIResponse(name = "TooLarge", responseCode = "413", description = "The body is larger than allowed",
                            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                    @APIResponse(name = "Unauthorized", responseCode = "401",
                            description = "No X-API-Key header, or a key that matches none",
                            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class),
                                    examples = @ExampleObject(name = "unauthenticated", value = ApiDocumentation.UNAUTHORIZED))),
                    @APIResponse(name = "Forbidden", responseCode = "403",
                            description = "The key does not have the role this endpoint needs",
                            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                    @APIResponse(name = "Unavailable", responseCode = "503",
                            description = "Redis did not answer; retry after Retry-After seconds with the same task id",
                            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
                }))
public class ApiDocumentation extends Application {

    public static final String API_KEY = "apiKey";

    static final String INVALID = "{\"type\":\"urn:dedupq:problem:invalid-request\",\"title\":\"Invalid request\",\"status\":400,"
            + "\"detail\":\"payload.amount must be greater than 0\",\"errors\":[{\"field\":\"payload.amount\","
            + "\"message\":\"must be greater than 0\"}]}";
    static final String NOT_FOUND = "{\"type\":\"urn:dedupq:problem:task-not-found\",\"title\":\"Not Found\",\"status\":404,"
            + "\"detail\":\"no task with id pay-0001\"}";
    static final String UNAUTHORIZED = "{\"type\":\"urn:dedupq:problem:unauthenticated\",\"title\":\"Unauthorized\","
            + "\"status\":401,\"detail\":\"send a valid API key in the X-API-Key header\"}";
}
