package io.dedupq.api;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import java.util.Map;

/**
 * Adds the answers every /api operation can give whatever it does — 401 and 403 (API key) and
 * 503 (Redis unavailable) — so that an endpoint cannot be documented without them.
 */
public class OpenApiErrors implements OASFilter {

    private static final Map<String, String> SHARED = Map.of("401", "Unauthorized", "403", "Forbidden",
            "503", "Unavailable");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            if (!path.getKey().startsWith("/api")) {
                continue;
            }
            for (Operation operation : path.getValue().getOperations().values()) {
                APIResponses responses = operation.getResponses();
                SHARED.forEach((code, name) -> {
                    if (!responses.hasAPIResponse(code)) {
                        responses.addAPIResponse(code, OASFactory.createAPIResponse().ref(name));
                    }
                });
            }
        }
    }
}
