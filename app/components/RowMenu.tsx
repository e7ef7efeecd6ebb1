import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import type { ReactNode } from "react";
import { ITEM, ItemElement, type RowMenuItem } from "./row-items.tsx";

/**
 * The "More" menu with JavaScript: a Headless UI Menu (keyboard, focus, Escape), anchored below its button. Loaded
 * after hydration as a chunk of its own (app/components/RowActions.tsx): the menu and its positioning are about a
 * fifth of a list page's JavaScript, and the <details> list works until it arrives.
 */
export default function RowMenu({ button, more }: { button: ReactNode; more: RowMenuItem[] }) {
  return (
    <Menu>
      <MenuButton className="link inline-flex items-center gap-1" data-testid="row-more">
        {button}
        <span aria-hidden="true">▾</span>
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        modal={false}
        className="z-30 min-w-44 rounded-md bg-white py-1 shadow-lg ring-1 ring-slate-200 focus:outline-none"
        data-testid="row-menu"
      >
        {more.map((item) => (
          <MenuItem key={item.key}>
            <ItemElement item={item} className={`${ITEM} data-[focus]:bg-slate-100`} scripted />
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
