// Launcher of the managed local Neo4j: Community engine, Bolt and HTTP (with Neo4j Browser) on loopback.
// Usage: GraphmemNeo4j <home> <host> <bolt-port> <http-port> <page-cache-bytes>
// Data lives in <home>/data and survives restarts; SIGTERM closes the database cleanly.
// With GRAPHMEM_NEO4J_AUTH_PASSWORD set (environment, so it never shows in a process list),
// authentication is on and user neo4j gets that password (a test mode for authenticated servers).
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

public class GraphmemNeo4j {
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        String host = args[1];
        int bolt = Integer.parseInt(args[2]);
        int http = Integer.parseInt(args[3]);
        long pageCache = Long.parseLong(args[4]);
        String password = System.getenv("GRAPHMEM_NEO4J_AUTH_PASSWORD");
        boolean auth = password != null && !password.isEmpty();
        Path run = home.resolve("run");
        Files.createDirectories(run);
        Neo4j neo = Neo4jBuilders.newInProcessBuilder(run)
            .withConfig(GraphDatabaseSettings.data_directory, home.resolve("data"))
            .withConfig(GraphDatabaseSettings.logs_directory, home.resolve("logs"))
            .withConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
            .withConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
            .withConfig(GraphDatabaseSettings.udc_enabled, false)
            .withConfig(GraphDatabaseSettings.auth_enabled, auth)
            .withConfig(BoltConnector.enabled, true)
            .withConfig(BoltConnector.listen_address, new SocketAddress(host, bolt))
            .withConfig(BoltConnector.advertised_address, new SocketAddress(host, bolt))
            .withConfig(HttpConnector.enabled, true)
            .withConfig(HttpConnector.listen_address, new SocketAddress(host, http))
            .withConfig(HttpConnector.advertised_address, new SocketAddress(host, http))
            .build();
        if (auth) {
            neo.databaseManagementService().database("system").executeTransactionally(
                "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                java.util.Map.of("password", password));
        }
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            neo.close();
            closed.countDown();
        }));
        System.out.println("GRAPHMEM-NEO4J-READY " + neo.boltURI() + " " + neo.httpURI());
        System.out.flush();
        closed.await();
    }
}
