import { LivePlaceholder } from './live-placeholder.tsx';

/** `/live/clm/{db}/{key}`: time-trial live. */
export default function ClmPage() {
  return <LivePlaceholder titleKey="pages.clm" />;
}
