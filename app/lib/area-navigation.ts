import { useEffect, useRef } from "react";
import { useNavigate } from "@remix-run/react";

/**
 * In-app navigation for an area of plain `<a href>` links (issue 34, docs/decisions/030): one click listener
 * on the area does what a `Link` does on each of its anchors, so a large fixed set of links (the console's
 * menu, the footer) renders as markup instead of a `Link` per anchor, whose hooks and path resolution cost a
 * console page a measurable part of its server time. Without JavaScript the anchors are ordinary links.
 *
 * A click is taken over as a `Link` takes it: the main button without a modifier key, not already handled,
 * on an anchor of this origin that opens in this window and is not a download; the same address replaces the
 * history entry instead of adding one.
 */
export function useAreaNavigation<T extends HTMLElement>() {
  const area = useRef<T>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const element = area.current;
    if (!element) return undefined;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const anchor = event.target instanceof Element ? event.target.closest("a") : null;
      if (!anchor || !element.contains(anchor) || !anchor.hasAttribute("href")) return;
      if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(to, { replace: to === here });
    };
    element.addEventListener("click", onClick);
    return () => element.removeEventListener("click", onClick);
  }, [navigate]);
  return area;
}
