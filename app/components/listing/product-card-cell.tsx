/**
 * A listing's grid cell, whose card hydrates only when it is about to be seen (record 025).
 * Hydrating /shop's 36 cards was most of the page's blocking script time on a slow
 * phone, though most of them are far below the fold.
 *
 * On the page's first hydration the cell keeps the server's markup untouched (an element whose
 * content React was told is raw HTML it does not own) and hydrates the card in a React root of its
 * own when the cell comes within a screen of the viewport, or as soon as the shopper touches, clicks
 * or focuses it, whichever is first: React then replays that event on the hydrated card. A root of
 * its own, not a Suspense boundary, because React client-renders a dehydrated boundary again on any
 * context change above it, and the store's layout changes contexts while it hydrates. The card gets
 * the cart's and the router's functions as props, since contexts do not cross roots.
 *
 * The card's root is the cell's inner `<div class="contents">`, not the `<li>` the page's root owns:
 * React finds the root to hydrate before replaying an event by the container's own fiber, and the
 * `<li>`'s would be the page's.
 *
 * Cells mounted after the first hydration (client navigation, "Load more") have no server markup and
 * render their card at once, in the page's own root.
 */
import { useEffect, useRef, useState } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { useNavigate } from "react-router";
import { useCartActions } from "#app/components/cart-context.tsx";
import { cardMarkup } from "./card-markup.ts";
import { firstHydrationUnderWay } from "./first-hydration.ts";
import {
  type CardProduct,
  defaultSizeId,
  ProductCardView,
  type ProductCardViewProps,
} from "./product-card-view.tsx";

/** Markup React leaves alone while hydrating: the server's card stays as it is until its own root takes it. */
const SERVER_MARKUP = { __html: "" };
const AHEAD_OF_VIEWPORT = "100% 0px";
/**
 * Any of these on the cell before it is hydrated hydrates it at once. Added in the capture phase on
 * the cell, which is also the new root's container: React's own listener there then receives the
 * same event as it bubbles back, hydrates synchronously and replays it (a change made with no touch
 * or focus first, as by assistive technology, is not lost).
 */
const FIRST_TOUCH_EVENTS = ["pointerdown", "focusin", "keydown", "click", "input", "change"] as const;

export function ProductCardCell({ product, priority }: { product: CardProduct; priority: boolean }) {
  const { addItem } = useCartActions();
  const navigate = useNavigate();
  const props: ProductCardViewProps = { product, priority, addItem, navigate };
  // Decided once, when the cell is created: only the first hydration has server markup to keep.
  const [deferred] = useState(() => firstHydrationUnderWay() && !priority);
  const cell = useRef<HTMLLIElement>(null);
  const root = useRef<Root | null>(null);
  const rendered = useRef<ProductCardViewProps | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const element = cell.current;
    if (!deferred || !element) return;
    const serverProps = latest.current;
    let observer: IntersectionObserver | undefined;
    const stopWatching = () => {
      observer?.disconnect();
      for (const type of FIRST_TOUCH_EVENTS) element.removeEventListener(type, start, true);
    };
    const start = () => {
      stopWatching();
      const container = element.firstElementChild;
      if (root.current || !container) return;
      const current = latest.current;
      rendered.current = current;
      // The server's markup is that of the first product data and the default size: data revalidated
      // since, or a size chosen on that markup already (a change event is what started this), is
      // rendered anew instead, with that size.
      const chosen = current.product.sizes[Number(element.querySelector("select")?.value ?? Number.NaN)]?.id;
      if (sameCard(current, serverProps) && (!chosen || chosen === defaultSizeId(current.product.sizes))) {
        root.current = hydrateRoot(container, <ProductCardView {...current} />);
      } else {
        root.current = createRoot(container);
        root.current.render(<ProductCardView {...current} initialSizeId={chosen} />);
      }
    };
    for (const type of FIRST_TOUCH_EVENTS) element.addEventListener(type, start, true);
    if (typeof IntersectionObserver === "undefined") start();
    else {
      observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && start(), {
        rootMargin: AHEAD_OF_VIEWPORT,
      });
      observer.observe(element);
    }
    return () => {
      stopWatching();
      const own = root.current;
      root.current = null;
      // Not while React is committing this page's own change.
      if (own) setTimeout(() => own.unmount(), 0);
    };
  }, [deferred]);

  // New product data (a revalidation) reaches a card already in its own root.
  useEffect(() => {
    if (!root.current || (rendered.current && sameCard(rendered.current, props))) return;
    rendered.current = props;
    root.current.render(<ProductCardView {...props} />);
  });

  // On the server, a card below the fold is written from its cached markup (card-markup.server.tsx),
  // inside the same <li> and container the browser's deferred cell hydrates.
  const markup = priority ? null : cardMarkup(product);
  if (markup !== null) {
    return (
      <li
        className="product-grid-cell"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the card's own markup, rendered by React on the server
        dangerouslySetInnerHTML={{ __html: `<div class="contents">${markup}</div>` }}
      />
    );
  }
  if (!deferred) {
    return (
      <li className="product-grid-cell">
        <div className="contents">
          <ProductCardView {...props} />
        </div>
      </li>
    );
  }
  return (
    <li
      ref={cell}
      className="product-grid-cell"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty constant; it only tells React to leave the server's card alone
      dangerouslySetInnerHTML={SERVER_MARKUP}
      suppressHydrationWarning
    />
  );
}

function sameCard(a: ProductCardViewProps, b: ProductCardViewProps) {
  return (
    a.product === b.product &&
    a.addItem === b.addItem &&
    a.navigate === b.navigate &&
    a.priority === b.priority
  );
}
