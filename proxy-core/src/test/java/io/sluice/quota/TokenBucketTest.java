package io.sluice.quota;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenBucketTest {

    private static final long SECOND = 1_000_000_000L;
    private final FakeClock clock = new FakeClock();

    @Test
    void aFreshBucketHoldsItsCapacity() {
        TokenBucket bucket = new TokenBucket(100, 2.0, clock.nanoTime());
        assertEquals(200.0, bucket.capacity(), 1e-9);
        assertEquals(200.0, bucket.balance(clock.nanoTime()), 1e-9);
        int admitted = 0;
        while (bucket.tryAcquire(clock.nanoTime(), 1)) {
            admitted++;
        }
        assertEquals(200, admitted);
        assertEquals(0.0, bucket.balance(clock.nanoTime()), 1e-9);
    }

    @Test
    void anIdleBucketRefillsOnlyToItsCapacity() {
        TokenBucket bucket = new TokenBucket(10, 1.0, clock.nanoTime());
        clock.advance(3600 * SECOND);
        assertEquals(10.0, bucket.balance(clock.nanoTime()), 1e-9);
    }

    @Test
    void aBatchLargerThanWhatIsLeftDrivesItNegative() {
        TokenBucket bucket = new TokenBucket(100, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 1));
        assertTrue(bucket.tryAcquire(now, 99), "admitted while the balance is positive");
        clock.advance(SECOND / 2);
        now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 100), "no larger than the bucket: admitted while positive");
        assertEquals(-50.0, bucket.balance(now), 1e-6);
        assertFalse(bucket.tryAcquire(now, 1));
        assertFalse(bucket.admits(now));

        // The debt is repaid at the rate: 50 units at 100/s take 0.5 s, then one more nanosecond.
        long wait = bucket.waitNanos(now);
        assertEquals(500_000_001L, wait);
        assertFalse(bucket.admits(now + wait - 1));
        assertTrue(bucket.admits(now + wait));
        assertTrue(bucket.tryAcquire(now + wait, 1));
    }

    @Test
    void aBatchLargerThanTheBucketWaitsForItToBeFullAndOwesNoMoreThanItsExcess() {
        TokenBucket bucket = new TokenBucket(100, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 1));
        assertTrue(bucket.admits(now), "a batch that fits would go");
        assertFalse(bucket.admits(now, 500));
        assertFalse(bucket.tryAcquire(now, 500), "larger than the bucket, which is not full");
        assertTrue(bucket.takeRefused());

        long wait = bucket.waitNanos(now, 500);
        assertEquals(10_000_000L, wait, "one unit to refill at 100/s");
        assertFalse(bucket.tryAcquire(now + wait - 1, 500));
        assertTrue(bucket.tryAcquire(now + wait, 500));
        assertEquals(-400.0, bucket.balance(now + wait), 1e-6, "the batch's excess over the bucket");
        assertEquals(5 * SECOND, bucket.waitNanos(now + wait, 500), "the next waits for a full bucket again");
    }

    /** Batches 15 times the bucket, sent as fast as they are let: the rate over a minute, plus one batch. */
    @Test
    void aStreamOfBatchesLargerThanTheBucketGoesAtTheRate() {
        TokenBucket bucket = new TokenBucket(200, 1.0, clock.nanoTime());
        long start = clock.nanoTime();
        long admitted = 0;
        for (long now = start; now - start <= 60 * SECOND; now += SECOND / 100) {
            if (bucket.tryAcquire(now, 3_000)) {
                admitted += 3_000;
            }
        }
        assertEquals(200 * 60 + 3_000, admitted);
    }

    @Test
    void aNewRateKeepsWhatTheBucketOwesAsTime() {
        TokenBucket bucket = new TokenBucket(100, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 150));
        assertEquals(-50.0, bucket.balance(now), 1e-6);

        bucket.setRate(200, 1.0);
        assertEquals(-100.0, bucket.balance(now), 1e-6, "half a second owed is 100 units at the new rate");
        assertEquals(500_000_001L, bucket.waitNanos(now), "and still half a second to wait");
        clock.advance(2 * SECOND);
        assertEquals(200.0, bucket.balance(clock.nanoTime()), 1e-6, "full at the new capacity");
        assertThrows(IllegalArgumentException.class, () -> bucket.setRate(0, 1.0));
        assertEquals(200.0, bucket.rate());
    }

    @Test
    void aShareThatRisesKeepsTheBalanceInUnitsSoNoRoomIsMade() {
        TokenBucket bucket = new TokenBucket(100, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 250));
        bucket.setRateKeepingBalance(200, 1.0, now);
        assertEquals(-150.0, bucket.balance(now), 1e-6, "the 150 owed stay owed");
        assertEquals(750_000_001L, bucket.waitNanos(now), "repaid at the new rate");

        TokenBucket full = new TokenBucket(100, 1.0, now);
        full.setRateKeepingBalance(400, 1.0, now);
        assertEquals(100.0, full.balance(now), 1e-6, "a full bucket keeps its 100, not 400 at once");
        clock.advance(SECOND);
        assertEquals(400.0, full.balance(clock.nanoTime()), 1e-6, "and fills to its new size at its new rate");
        assertThrows(IllegalArgumentException.class, () -> full.setRateKeepingBalance(0, 1.0, now));
    }

    @Test
    void aShareThatFallsKeepsWhatTheBucketOwesInUnitsSoNothingIsForgiven() {
        TokenBucket bucket = new TokenBucket(200, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 300));
        bucket.setRateKeepingBalance(100, 1.0, now);
        assertEquals(-100.0, bucket.balance(now), 1e-6);
        assertEquals(1_000_000_001L, bucket.waitNanos(now), "100 owed at 100/s, not half a second");

        TokenBucket full = new TokenBucket(200, 1.0, now);
        full.setRateKeepingBalance(100, 1.0, now);
        assertEquals(100.0, full.balance(now), 1e-6, "at most the new capacity");
    }

    @Test
    void countsWhatItWasChargedAndRemembersARefusalUntilAsked() {
        TokenBucket bucket = new TokenBucket(10, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 7));
        bucket.charge(now, 5);
        assertFalse(bucket.tryAcquire(now, 1));
        assertEquals(12, bucket.chargedUnits(), "a refused acquire takes nothing");
        assertTrue(bucket.takeRefused());
        assertFalse(bucket.takeRefused());
    }

    @Test
    void waitIsZeroWhenItAdmits() {
        TokenBucket bucket = new TokenBucket(100, 1.0, clock.nanoTime());
        assertEquals(0, bucket.waitNanos(clock.nanoTime()));
    }

    @Test
    void chargeTakesUnitsWhateverTheBalance() {
        TokenBucket bucket = new TokenBucket(10, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        bucket.charge(now, 30);
        bucket.charge(now, 30);
        assertEquals(-50.0, bucket.balance(now), 1e-9);
        bucket.charge(now, 0);
        assertEquals(-50.0, bucket.balance(now), 1e-9);
        assertEquals(5 * SECOND + 1, bucket.waitNanos(now));
    }

    /** A producer that sends as fast as it is let over a simulated 10 s gets the rate, plus the burst once. */
    @ParameterizedTest
    @CsvSource({
        "1000,     1.0,  1",
        "333.3,    1.0,  1",
        "3,        1.0,  1",
        "1048576,  1.0,  1000",
        "1048576,  0.01, 65536",
        "7777777,  2.5,  1234",
        "1e9,      1.0,  100",
    })
    void rateIsAccurateOverTenSeconds(double rate, double burstSeconds, long batch) {
        TokenBucket bucket = new TokenBucket(rate, burstSeconds, clock.nanoTime());
        long start = clock.nanoTime();
        long step = 100_000; // the producer retries every 100 us
        long admitted = 0;
        for (long now = start; now - start < 10 * SECOND; now += step) {
            while (bucket.tryAcquire(now, batch)) {
                admitted += batch;
            }
        }
        double expected = rate * 10 + rate * burstSeconds;
        assertEquals(expected, admitted, Math.max(expected * 0.005, batch), "admitted over 10 s");
    }

    @Test
    void manySmallChargesDoNotAccumulateRoundingError() {
        // 1e9 / 3e6 = 333.33 ns per unit: a truncated per-unit cost would admit 0.1 % too many.
        TokenBucket bucket = new TokenBucket(3_000_000, 1.0, clock.nanoTime());
        long start = clock.nanoTime();
        long admitted = 0;
        for (long now = start; now - start < SECOND; now += 1_000) {
            while (bucket.tryAcquire(now, 1)) {
                admitted++;
            }
        }
        assertEquals(6_000_000, admitted, 6_000_000 * 0.0002);
    }

    @Test
    void hugeChargesOnSlowBucketsDoNotOverflow() {
        TokenBucket bucket = new TokenBucket(1e-9, 60, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, Long.MAX_VALUE));
        assertFalse(bucket.admits(now));
        assertTrue(bucket.waitNanos(now) > 0);
        assertTrue(bucket.balance(now) < 0);
    }

    @Test
    void worksAcrossTheNanoTimeWrap() {
        long nearWrap = Long.MAX_VALUE - SECOND / 2;
        TokenBucket bucket = new TokenBucket(10, 1.0, nearWrap);
        for (int i = 0; i < 10; i++) {
            assertTrue(bucket.tryAcquire(nearWrap, 1));
        }
        assertFalse(bucket.tryAcquire(nearWrap, 1));
        long afterWrap = nearWrap + SECOND; // overflows to a negative number
        assertTrue(afterWrap < 0);
        assertEquals(10.0, bucket.balance(afterWrap), 1e-9);
    }

    @Test
    void refusesNonsenseRates() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(Double.NaN, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, Double.POSITIVE_INFINITY, 0));
        assertEquals(5.0, new TokenBucket(5, 1, 0).rate());
    }

    @Test
    void aChargeGivenBackIsAsIfNeverTakenButNeverFillsPastFull() {
        TokenBucket bucket = new TokenBucket(100, 1.0, clock.nanoTime());
        long now = clock.nanoTime();
        assertTrue(bucket.tryAcquire(now, 1_000), "a full bucket takes one oversized charge");
        assertFalse(bucket.admits(now));
        bucket.giveBack(now, 1_000);
        assertEquals(100.0, bucket.balance(now), 1e-6);
        assertEquals(0, bucket.chargedUnits());
        bucket.giveBack(now, 1_000);
        assertEquals(100.0, bucket.balance(now), 1e-6, "no fuller than full");
    }
}
