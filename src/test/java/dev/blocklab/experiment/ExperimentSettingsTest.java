package dev.blocklab.experiment;

import dev.blocklab.driver.Progress;
import dev.blocklab.result.Environment;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExperimentSettingsTest {
    private static ExperimentSettings settings(boolean full, long timeScale) {
        return new ExperimentSettings(full, timeScale, Progress.NONE, row -> {}, Environment.current());
    }

    @Test void scaleLabel_saysTheDivisor_wheneverDelaysAreScaled() {
        assertThat(settings(true, 1).scaleLabel()).isEqualTo("full");
        assertThat(settings(true, 10).scaleLabel()).isEqualTo("full, delays / 10");   // reproduce --full --time-scale 10
        assertThat(settings(false, 10).scaleLabel()).isEqualTo("quick, delays / 10");
        assertThat(settings(false, 1).scaleLabel()).isEqualTo("quick, real delays");   // reproduce --time-scale 1
    }
}
