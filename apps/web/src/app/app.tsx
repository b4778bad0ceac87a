import {
  AppBar,
  Box,
  Container,
  CssBaseline,
  createTheme,
  ThemeProvider,
  Toolbar,
  Typography,
} from '@mui/material';

/** Light theme, primary colour from spec §9. */
const theme = createTheme({ palette: { mode: 'light', primary: { main: '#39aade', contrastText: '#fff' } } });

/** The application shell; the routes and layouts of spec §2 mount inside it. */
export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <AppBar position="sticky" elevation={1}>
        <Toolbar>
          <Typography variant="h6" component="span" sx={{ fontWeight: 700 }} data-testid="app-title">
            Tempora
          </Typography>
        </Toolbar>
      </AppBar>
      <Container component="main" sx={{ py: 4 }}>
        <Box>
          <Typography variant="h4" component="h1">
            Live results
          </Typography>
        </Box>
      </Container>
    </ThemeProvider>
  );
}
