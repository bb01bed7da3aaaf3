package io.dedupq.security;

import io.dedupq.api.ApiPaths;
import io.dedupq.config.DedupqConfig;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Reads the {@code X-API-Key} header on dedupq's own paths ({@link ApiPaths#owns}) and nowhere
 * else: on an application's own endpoints it authenticates nobody and sends no challenge, so
 * the application's own security (or none) decides there. With security off every dedupq
 * request is an "anonymous" caller holding both roles, so the {@code @RolesAllowed} checks on
 * the resources stay in place and simply pass. A request without the header, or with a key
 * that matches none, stays anonymous and is refused by those checks (401 problem+json, whether
 * or not the application authenticates proactively).
 */
@ApplicationScoped
public class ApiKeyMechanism implements HttpAuthenticationMechanism {

    public static final String HEADER = "X-API-Key";

    private static final SecurityIdentity OPEN = QuarkusSecurityIdentity.builder()
            .setPrincipal(new QuarkusPrincipal("anonymous")).addRoles(Set.of(Roles.PRODUCER, Roles.OPERATOR)).build();

    private final boolean enabled;

    public ApiKeyMechanism(DedupqConfig config) {
        this.enabled = ApiKeys.enabled(config.security());
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        if (!ApiPaths.owns(context.normalizedPath())) {
            return Uni.createFrom().nullItem();
        }
        if (!enabled) {
            return Uni.createFrom().item(OPEN);
        }
        String key = context.request().getHeader(HEADER);
        if (key == null || key.isEmpty()) {
            return Uni.createFrom().nullItem();
        }
        return identities.authenticate(new ApiKeyRequest(key))
                .onFailure(AuthenticationFailedException.class).recoverWithNull();
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        if (!ApiPaths.owns(context.normalizedPath())) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "ApiKey header=\"" + HEADER + "\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(ApiKeyRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.OTHER_HEADER, HEADER));
    }
}
