/**
 * A small carousel (no library): autoplay with loop, arrows, dots, a 50 px swipe, breakpoints via
 * matchMedia, no autoplay under prefers-reduced-motion, off-screen slides inert (not focusable).
 */
import { Children, useCallback, useEffect, useRef, useState } from "react";
import { Icon } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";

export const SWIPE_THRESHOLD_PX = 50;
export const MD_BREAKPOINT_PX = 768;
export const LG_BREAKPOINT_PX = 1024;

type PerView = { base: number; md?: number; lg?: number };

const BASIS: Record<number, string> = { 1: "basis-full", 2: "basis-1/2", 3: "basis-1/3", 4: "basis-1/4" };
const MD_BASIS: Record<number, string> = {
  1: "md:basis-full",
  2: "md:basis-1/2",
  3: "md:basis-1/3",
  4: "md:basis-1/4",
};
const LG_BASIS: Record<number, string> = {
  1: "lg:basis-full",
  2: "lg:basis-1/2",
  3: "lg:basis-1/3",
  4: "lg:basis-1/4",
};

function usePerView(perView: PerView) {
  const [value, setValue] = useState(perView.base);
  useEffect(() => {
    const md = window.matchMedia(`(min-width: ${MD_BREAKPOINT_PX}px)`);
    const lg = window.matchMedia(`(min-width: ${LG_BREAKPOINT_PX}px)`);
    const update = () => {
      const mdValue = perView.md ?? perView.base;
      setValue(lg.matches ? (perView.lg ?? mdValue) : md.matches ? mdValue : perView.base);
    };
    update();
    md.addEventListener("change", update);
    lg.addEventListener("change", update);
    return () => {
      md.removeEventListener("change", update);
      lg.removeEventListener("change", update);
    };
  }, [perView.base, perView.md, perView.lg]);
  return value;
}

function usePrefersReducedMotion() {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    const update = () => setReduced(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return reduced;
}

export function Carousel({
  label,
  children,
  intervalMs,
  perView = { base: 1 },
  stopOnInteraction = false,
  arrows = "always",
  dots = "always",
  className,
  onDark = false,
}: {
  label: string;
  children: React.ReactNode;
  intervalMs: number;
  perView?: PerView;
  /** Flower carousel: stop advancing for good once the shopper scrolls the page, uses the arrows or swipes. */
  stopOnInteraction?: boolean;
  arrows?: "always" | "desktop" | "never";
  dots?: "always" | "mobile" | "never";
  className?: string;
  /** Dots drawn for a dark background. */
  onDark?: boolean;
}) {
  const slides = Children.toArray(children);
  const count = slides.length;
  const visible = usePerView(perView);
  const reducedMotion = usePrefersReducedMotion();
  const maxIndex = Math.max(0, count - visible);
  const [index, setIndex] = useState(0);
  const [stopped, setStopped] = useState(false);
  const [paused, setPaused] = useState(false);
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const current = Math.min(index, maxIndex);

  const go = useCallback(
    (next: number) => setIndex(next > maxIndex ? 0 : next < 0 ? maxIndex : next),
    [maxIndex],
  );
  const interact = useCallback(() => {
    if (stopOnInteraction) setStopped(true);
  }, [stopOnInteraction]);

  // Autoplay: loops; never under reduced motion; paused while keyboard focus is inside.
  useEffect(() => {
    if (reducedMotion || stopped || paused || maxIndex === 0) return;
    // Read here too: on the first render `reducedMotion` is still the server's false.
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") setIndex((value) => (value >= maxIndex ? 0 : value + 1));
    }, intervalMs);
    return () => clearInterval(timer);
  }, [reducedMotion, stopped, paused, maxIndex, intervalMs]);

  // Flower carousel: a page scroll by the shopper stops it for good.
  useEffect(() => {
    if (!stopOnInteraction || stopped) return;
    const startY = window.scrollY;
    const onScroll = () => {
      if (Math.abs(window.scrollY - startY) > 2) setStopped(true);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [stopOnInteraction, stopped]);

  if (count === 0) return null;

  const slideBasis = cn(
    BASIS[perView.base],
    perView.md ? MD_BASIS[perView.md] : undefined,
    perView.lg ? LG_BASIS[perView.lg] : undefined,
  );
  const pages = maxIndex + 1;

  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      className={cn("relative", className)}
      onFocus={(event) => {
        if (event.target.matches(":focus-visible")) setPaused(true);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setPaused(false);
      }}
    >
      <div
        className="overflow-hidden"
        onTouchStart={(event) => {
          const touch = event.touches[0];
          if (touch) touchStart.current = { x: touch.clientX, y: touch.clientY };
        }}
        onTouchEnd={(event) => {
          const start = touchStart.current;
          const touch = event.changedTouches[0];
          touchStart.current = null;
          if (!start || !touch) return;
          const dx = touch.clientX - start.x;
          const dy = touch.clientY - start.y;
          if (Math.abs(dx) > SWIPE_THRESHOLD_PX && Math.abs(dx) > Math.abs(dy)) {
            interact();
            go(dx < 0 ? current + 1 : current - 1);
          }
        }}
      >
        <ul
          className="-mx-2 flex transition-transform duration-500 ease-out motion-reduce:transition-none"
          style={{ transform: `translateX(-${(current * 100) / visible}%)` }}
        >
          {slides.map((slide, slideIndex) => {
            const shown = slideIndex >= current && slideIndex < current + visible;
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: slides are static for the carousel's life
                key={slideIndex}
                aria-roledescription="slide"
                aria-label={`${slideIndex + 1} of ${count}`}
                aria-hidden={!shown || undefined}
                inert={!shown || undefined}
                className={cn("min-w-0 shrink-0 grow-0 px-2", slideBasis)}
              >
                {slide}
              </li>
            );
          })}
        </ul>
      </div>
      {arrows !== "never" && maxIndex > 0 ? (
        <div
          className={cn(
            "pointer-events-none absolute inset-y-0 -inset-x-3 items-center justify-between",
            arrows === "desktop" ? "hidden md:flex" : "flex",
          )}
        >
          <button
            type="button"
            aria-label="Previous slide"
            onClick={() => {
              interact();
              go(current - 1);
            }}
            className="pointer-events-auto inline-flex size-11 items-center justify-center rounded-full border border-border bg-card text-foreground shadow-card hover:bg-muted"
          >
            <Icon name="chevron-left" className="size-5" />
          </button>
          <button
            type="button"
            aria-label="Next slide"
            onClick={() => {
              interact();
              go(current + 1);
            }}
            className="pointer-events-auto inline-flex size-11 items-center justify-center rounded-full border border-border bg-card text-foreground shadow-card hover:bg-muted"
          >
            <Icon name="chevron-right" className="size-5" />
          </button>
        </div>
      ) : null}
      {dots !== "never" && pages > 1 ? (
        <div className={cn("mt-3 justify-center", dots === "mobile" ? "flex md:hidden" : "flex")}>
          {Array.from({ length: pages }, (_, dot) => (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: one dot per position
              key={dot}
              type="button"
              aria-label={`Go to slide ${dot + 1}`}
              aria-current={dot === current || undefined}
              onClick={() => go(dot)}
              className="group inline-flex size-11 items-center justify-center"
            >
              <span
                className={cn(
                  "block h-2 rounded-full transition-all",
                  dot === current
                    ? cn("w-6", onDark ? "bg-honey-400" : "bg-primary")
                    : cn(
                        "w-2",
                        onDark
                          ? "bg-forest-600 group-hover:bg-forest-500"
                          : "bg-paper-300 group-hover:bg-paper-400",
                      ),
                )}
              />
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
