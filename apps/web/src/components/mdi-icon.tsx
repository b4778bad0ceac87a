import { SvgIcon, type SvgIconProps } from '@mui/material';

/** An icon of the mdi set (spec §9: mdi is the default icon set), tree-shaken from @mdi/js. */
export function MdiIcon({ path, ...props }: SvgIconProps & { path: string }) {
  return (
    <SvgIcon {...props}>
      <path d={path} />
    </SvgIcon>
  );
}
