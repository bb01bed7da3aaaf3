package io.dedupq.security;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** The X-API-Key header of one request, on its way to {@link ApiKeyIdentityProvider}. */
public class ApiKeyRequest extends BaseAuthenticationRequest {

    private final String key;

    public ApiKeyRequest(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
