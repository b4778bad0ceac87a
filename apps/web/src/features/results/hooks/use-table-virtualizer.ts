import { Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { startTransition, useLayoutEffect, useReducer, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * `useVirtualizer` (TanStack Virtual's React binding, the same few lines) but for when it renders
 * again: a scroll still re-renders at once (`flushSync`, rows follow the finger), and every other
 * change — rows measured, the scrolling area resized, the row count changed — re-renders as a
 * transition. TanStack's binding re-renders those from its layout effects and the rows' ref
 * callbacks, which React renders synchronously inside the commit: after the rest of a big table
 * came, a second whole render of the table in the same task (issue 28: 270 ms on a throttled phone,
 * Lighthouse TBT). The options are TanStack's, with the element observers and scroll given.
 */
export function useTableVirtualizer<TScroll extends Element, TItem extends Element>(
  options: VirtualizerOptions<TScroll, TItem>,
): Virtualizer<TScroll, TItem> {
  const rerender = useReducer(() => ({}), {})[1];
  const resolved: VirtualizerOptions<TScroll, TItem> = {
    ...options,
    onChange: (instance, sync) => {
      if (sync) flushSync(rerender);
      else startTransition(rerender);
      options.onChange?.(instance, sync);
    },
  };
  const [instance] = useState(() => new Virtualizer<TScroll, TItem>(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), [instance]);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
