package dev.blocklab.report;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The report opened in headless Chromium: the rendered DOM holds the charts' data points and bars, and a
 * screenshot shows them in colour. Skipped where {@code /usr/bin/chromium} is missing, except under CI (CI set), which installs it
 * ({@code .ci/run}). Chromium runs with no sandbox, no GPU and background networking off, on a fresh profile.
 */
class HtmlBrowserIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    @TempDir static Path dir;
    static Path page;

    @BeforeAll static void writePage() throws IOException {
        if (System.getenv("CI") != null && !Files.isExecutable(CHROMIUM))
            throw new AssertionError("CI must install chromium at " + CHROMIUM + " (see .ci/run)");
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed at " + CHROMIUM);
        page = dir.resolve("report.html");
        Files.writeString(page, HtmlReportGoldenTest.page());
    }

    private static String chromium(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-default-apps", "--user-data-dir=" + Files.createTempDirectory(dir, "profile")));
        command.addAll(List.of(args));
        command.add(page.toUri().toString());
        Path stdout = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("chromium.log").toFile())).start();
        try {
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished within 90 s").isTrue();
        } finally {
            p.destroyForcibly();
        }
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    @Test void dumpDom_chartsRenderedWithTheirDataPoints() throws Exception {
        String dom = chromium("--dump-dom");
        String source = Files.readString(page);
        long points = Pattern.compile("<circle class=\"point\"").matcher(dom).results().count();
        long bars = Pattern.compile("<rect class=\"bar\"").matcher(dom).results().count();
        assertThat(points).isPositive().isEqualTo(Pattern.compile("<circle class=\"point\"").matcher(source).results().count());
        assertThat(bars).isPositive().isEqualTo(Pattern.compile("<rect class=\"bar\"").matcher(source).results().count());
        assertThat(Pattern.compile("<svg[^>]*class=\"chart\"").matcher(dom).results().count()).isEqualTo(11);
        assertThat(dom).contains("<figcaption>").contains("Prediction beside measurement");
    }

    @Test void screenshot_notBlankAndShowsTheChartColours() throws Exception {
        Path png = dir.resolve("shot.png");
        chromium("--window-size=1400,1800", "--hide-scrollbars", "--screenshot=" + png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("screenshot written").isNotNull();
        Set<Integer> colours = new HashSet<>();
        int palette = 0;
        for (int y = 0; y < image.getHeight(); y += 2)
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                if (rgb == 0x4e79a7 || rgb == 0xf28e2b || rgb == 0xe15759) palette++;
            }
        assertThat(colours.size()).as("distinct colours").isGreaterThan(20);
        assertThat(palette).as("pixels in the first three series colours").isGreaterThan(500);
    }
}
