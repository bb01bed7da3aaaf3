package io.dedupq.security;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Turns a presented API key into the identity of the configured key it matches, or fails. */
@ApplicationScoped
public class ApiKeyIdentityProvider implements IdentityProvider<ApiKeyRequest> {

    private final ApiKeys keys;

    public ApiKeyIdentityProvider(ApiKeys keys) {
        this.keys = keys;
    }

    @Override
    public Class<ApiKeyRequest> getRequestType() {
        return ApiKeyRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(ApiKeyRequest request, AuthenticationRequestContext context) {
        // two SHA-256 digests per configured key: cheap enough for the event loop
        return keys.match(request.key())
                .<Uni<SecurityIdentity>>map(caller -> Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                        .setPrincipal(new QuarkusPrincipal(caller.name())).addRoles(caller.roles()).build()))
                .orElseGet(() -> Uni.createFrom().failure(new AuthenticationFailedException("unknown API key")));
    }
}
