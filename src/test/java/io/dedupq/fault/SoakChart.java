package io.dedupq.fault;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * The soak's time series as one PNG: three panels over the same time axis (tasks finished per
 * second; Redis memory; RSS and used heap of the largest api and worker pod), with a red tick at each
 * kill -9 of a worker and a blue line where Redis was crashed and restarted.
 */
final class SoakChart {

    private static final int WIDTH = 1200;
    private static final int PANEL = 220;
    private static final int LEFT = 80;
    private static final int TOP = 64;

    private record Series(String label, Color color, double[] values) {

        static Series of(String label, Color color, List<SoakSampler.Row> rows, ToDoubleFunction<SoakSampler.Row> value) {
            return new Series(label, color, rows.stream().mapToDouble(value).toArray());
        }
    }

    static void write(List<SoakSampler.Row> rows, String title, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, TOP + 3 * (PANEL + 40) + 20, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, 24);
        double[] rate = new double[rows.size()];
        for (int i = 1; i < rows.size(); i++) {
            double dt = rows.get(i).seconds() - rows.get(i - 1).seconds();
            rate[i] = dt > 0 ? Math.max(0, rows.get(i).succeeded() - rows.get(i - 1).succeeded()) / dt : 0;
        }
        int y = TOP;
        panel(g, rows, y, "tasks succeeded per second", List.of(new Series("succeeded/s", new Color(0x2a7d2a), rate)));
        y += PANEL + 40;
        panel(g, rows, y, "Redis used_memory, MiB",
                List.of(Series.of("Redis", new Color(0x7a3db8), rows, SoakSampler.Row::redisMib)));
        y += PANEL + 40;
        panel(g, rows, y, "RSS and used heap, MiB (largest pod of each kind)", List.of(
                Series.of("api RSS", new Color(0xc06000), rows, SoakSampler.Row::apiRssMib),
                Series.of("worker RSS", new Color(0x1f5fb0), rows, SoakSampler.Row::workerRssMib),
                Series.of("api heap", new Color(0xe8a060), rows, SoakSampler.Row::apiHeapMib),
                Series.of("worker heap", new Color(0x80a8e0), rows, SoakSampler.Row::workerHeapMib)));
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    private static void panel(Graphics2D g, List<SoakSampler.Row> rows, int top, String title, List<Series> series) {
        int width = WIDTH - LEFT - 30;
        double end = rows.isEmpty() ? 1 : Math.max(1, rows.get(rows.size() - 1).seconds());
        double max = 1;
        for (Series s : series) {
            max = Math.max(max, java.util.Arrays.stream(s.values()).max().orElse(1));
        }
        max *= 1.1;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(Color.BLACK);
        g.drawString(title, LEFT, top - 6);
        g.setColor(new Color(0xdddddd));
        for (int k = 0; k <= 4; k++) {
            int gy = top + PANEL - k * PANEL / 4;
            g.drawLine(LEFT, gy, LEFT + width, gy);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(java.util.Locale.ROOT, "%,.0f", max * k / 4), 8, gy + 4);
            g.setColor(new Color(0xdddddd));
        }
        for (int minute = 0; minute * 60 <= end; minute += Math.max(1, (int) (end / 60 / 10))) {
            int gx = LEFT + (int) (width * minute * 60 / end);
            g.setColor(Color.DARK_GRAY);
            g.drawString(minute + " min", gx - 10, top + PANEL + 14);
        }
        long kills = 0;
        long restarts = 0;
        for (SoakSampler.Row r : rows) {
            int x = LEFT + (int) (width * r.seconds() / end);
            if (r.kills() > kills) {
                g.setColor(new Color(0xd03030));
                g.drawLine(x, top + PANEL - 24, x, top + PANEL);
            }
            if (r.redisRestarts() > restarts) {
                g.setColor(new Color(0x3050d0));
                g.drawLine(x, top, x, top + PANEL);
            }
            kills = r.kills();
            restarts = r.redisRestarts();
        }
        g.setStroke(new BasicStroke(1.6f));
        int legend = LEFT + width - 120 * series.size();
        for (Series s : series) {
            g.setColor(s.color());
            int px = -1;
            int py = -1;
            for (int i = 0; i < rows.size(); i++) {
                int x = LEFT + (int) (width * rows.get(i).seconds() / end);
                int yv = top + PANEL - (int) (PANEL * s.values()[i] / max);
                if (px >= 0) {
                    g.drawLine(px, py, x, yv);
                }
                px = x;
                py = yv;
            }
            g.drawString(s.label(), legend, top + 14);
            legend += 120;
        }
        g.setStroke(new BasicStroke(1f));
        g.setColor(Color.GRAY);
        g.drawRect(LEFT, top, width, PANEL);
    }

    private SoakChart() {
    }
}
