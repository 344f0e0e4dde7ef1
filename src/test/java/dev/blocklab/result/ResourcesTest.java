package dev.blocklab.result;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResourcesTest {
    @Test void plus_totalsAddAndPeaksTakeTheLarger() {
        Resources a = new Resources(20, 30, 8, 0, 100.5, new ContextSwitches(10, 2), 1_000, 50L << 20);
        Resources b = new Resources(12, 40, 4, 1, 50.0, new ContextSwitches(5, 1), 500, 70L << 20);
        assertThat(a.plus(b)).isEqualTo(new Resources(20, 40, 12, 1, 150.5, new ContextSwitches(15, 3), 1_500, 70L << 20));
    }

    @Test void plus_unknownAllocationOrSwitches_stayUnknown() {
        Resources known = new Resources(1, 1, 1, 0, 1, new ContextSwitches(1, 1), 10, 1);
        Resources unknown = new Resources(1, 1, 1, 0, 1, new ContextSwitches(-1, -1), -1, 1);
        Resources sum = known.plus(unknown);
        assertThat(sum.allocatedBytes()).isEqualTo(-1);
        assertThat(sum.contextSwitches().total()).isEqualTo(-1);
    }

    @Test void contextSwitches_minusThenPlus_givesBackTheLater() {
        ContextSwitches earlier = new ContextSwitches(100, 7);
        ContextSwitches later = new ContextSwitches(160, 9);
        assertThat(earlier.plus(later.minus(earlier))).isEqualTo(later);
    }
}
