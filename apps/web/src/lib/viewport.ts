/**
 * The window's size, read when the app starts and again on each `resize`, for a render to plan
 * with: reading `innerWidth` or `innerHeight` during a render forces the page's layout when the
 * DOM has changed since the last one (issue 28: a 120 ms task on a throttled phone, in the
 * report table's every render).
 */
const size = { width: 1024, height: 768 };

function read() {
  size.width = window.innerWidth;
  size.height = window.innerHeight;
}

if (typeof window !== 'undefined') {
  read();
  window.addEventListener('resize', read, { passive: true });
}

/** The window's width and height (CSS px) at the last start or resize. */
export function viewportSize(): Readonly<{ width: number; height: number }> {
  return size;
}
