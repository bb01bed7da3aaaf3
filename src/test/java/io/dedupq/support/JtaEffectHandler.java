package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.sql.FencedWrites;
import io.dedupq.sql.SqlSwitch;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The test-only "sql-effect-jta" type: a {@code @Transactional} handler, as one writing entities
 * with Hibernate ORM would be, whose row of {@code effects} (plain JDBC on the connection the
 * datasource enlisted in the transaction) is recorded through {@link FencedWrites#joinTransaction}.
 */
@IfBuildProperty(name = SqlSwitch.ENABLED, stringValue = "true")
@ApplicationScoped
public class JtaEffectHandler implements TaskHandler<SqlEffectHandler.Payload> {

    private final FencedWrites fenced;
    private final DataSource dataSource;

    public JtaEffectHandler(FencedWrites fenced, DataSource dataSource) {
        this.fenced = fenced;
        this.dataSource = dataSource;
    }

    @Override
    public String type() {
        return "sql-effect-jta";
    }

    @Override
    public Class<SqlEffectHandler.Payload> payloadType() {
        return SqlEffectHandler.Payload.class;
    }

    @Override
    @Transactional
    public Object handle(SqlEffectHandler.Payload payload, ExecutionContext ctx) throws Exception {
        return fenced.joinTransaction(ctx, () -> {
            try (Connection enlisted = dataSource.getConnection()) {
                SqlEffectHandler.insertEffect(enlisted, ctx);
            }
            return Map.of("written", ctx.fencingToken());
        });
    }
}
